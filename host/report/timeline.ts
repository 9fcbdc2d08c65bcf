import type { EventOf, SessionEvent } from '../log/index.ts';
import type { SeamId } from '../seams/index.ts';
import { eventAnchor } from './findings.ts';

/** A log event with the id of its timeline entry. */
export interface Anchored<E extends SessionEvent = SessionEvent> {
  readonly anchor: string;
  readonly event: E;
}

/** One seam dispatch: the consecutive `hook/invoke` events of one seam, in composition order. */
export interface Dispatch {
  readonly seam: SeamId;
  readonly invocations: Anchored<EventOf<'hook/invoke'>>[];
}

export type TimelineItem = ({ readonly kind: 'event' } & Anchored) | ({ readonly kind: 'dispatch' } & Dispatch);

/** A turn, or what happened outside turns (session start, a resumed session's header). */
export interface TimelineSection {
  /** Absent: events outside a turn. */
  readonly turn?: number;
  readonly startedAt?: string;
  end?: EventOf<'turn/end'>;
  readonly items: TimelineItem[];
}

/**
 * Cuts one session's events into sections, in log order: a section per
 * `turn/start`, and one for each run of events outside a turn. Events that
 * carry a turn join that turn's section even when its `turn/start` is
 * missing (a log cut short at the front), so nothing is dropped.
 */
export function timelineSections(session: number, events: readonly SessionEvent[]): TimelineSection[] {
  const sections: TimelineSection[] = [];
  let current: TimelineSection | undefined;
  const open = (section: TimelineSection): TimelineSection => {
    sections.push(section);
    current = section;
    return section;
  };
  events.forEach((event, index) => {
    const anchor = eventAnchor(session, index);
    if (event.type === 'turn/start') {
      open({ turn: event.turn, startedAt: event.at, items: [] });
      return;
    }
    const turn = 'turn' in event ? event.turn : undefined;
    let section = current;
    if (turn !== undefined && section?.turn !== turn) section = open({ turn, items: [] });
    else if (turn === undefined && (section === undefined || section.end !== undefined)) section = open({ items: [] });
    if (section === undefined) return; // unreachable: a section was just opened
    if (event.type === 'turn/end') {
      section.end = event;
      return;
    }
    const last = section.items.at(-1);
    if (event.type === 'hook/invoke') {
      if (last?.kind === 'dispatch' && last.seam === event.seam) last.invocations.push({ anchor, event });
      else section.items.push({ kind: 'dispatch', seam: event.seam, invocations: [{ anchor, event }] });
      return;
    }
    section.items.push({ kind: 'event', anchor, event });
  });
  return sections;
}
