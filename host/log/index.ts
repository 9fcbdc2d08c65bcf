export { SessionEventSchema, ToolCallSchema, TurnEndReasonSchema } from './events.ts';
export type { EventOf, SessionEvent, SessionEventType, ToolCall, TurnEndReason } from './events.ts';
export { readSessionLog, repairTornTail } from './reader.ts';
export type { ReadLog } from './reader.ts';
export { SessionLogWriter } from './writer.ts';
export type { EventListener } from './writer.ts';
