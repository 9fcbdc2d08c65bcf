/* Generated from host/wire.cjs by `npm run gen`; do not edit. */
#ifndef HOOKBOX_WIRE_H
#define HOOKBOX_WIRE_H

#define WIRE_MAX_SOCKET_PATH 107
#define WIRE_DEFAULT_DEADLINE_MS 25000
#define WIRE_MAX_STDIN 4194304
#define WIRE_MAX_ANSWER 1048576
#define WIRE_MAX_REASON 500
#define WIRE_CONFIG_HEADER "x-hookbox-config"
#define WIRE_NONCE_HEADER "x-hookbox-nonce"
#define WIRE_FRAME_HEADER "x-hookbox-frame"
#define WIRE_FRAME_LINE "line"
#define WIRE_REASON "{reason}"

/* The agents whose events carry no name: the event is the command line's. */
static const char *const WIRE_EVENT_ON_COMMAND_LINE[] = {"copilot", "cline", 0};

struct wire_pair { const char *agent; const char *value; };
/* The variable each agent names its project folder by. */
static const struct wire_pair WIRE_PROJECT_DIR_VARIABLE[] = {
  {"claude-code", "CLAUDE_PROJECT_DIR"},
  {"gemini", "GEMINI_PROJECT_DIR"},
  {"qwen", "QWEN_PROJECT_DIR"},
  {"factory", "FACTORY_PROJECT_DIR"},
  {"copilot", "COPILOT_PROJECT_DIR"},
  {0, 0},
};

/* Agent, event, closed form (JSON with WIRE_REASON where the reason goes; NULL: let through). Not listed: exit 2. */
struct wire_closed { const char *agent; const char *event; const char *form; };
static const struct wire_closed WIRE_CLOSED[] = {
  {"claude-code", "PreToolUse", "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"{reason}\"}}"},
  {"claude-code", "UserPromptSubmit", "{\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"claude-code", "PostToolUse", "{\"continue\":false,\"stopReason\":\"{reason}\",\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"claude-code", "PostToolUseFailure", "{\"continue\":false,\"stopReason\":\"{reason}\",\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"claude-code", "Stop", NULL},
  {"claude-code", "SessionStart", NULL},
  {"claude-code", "SessionEnd", NULL},
  {"claude-code", "PreCompact", NULL},
  {"claude-code", "SubagentStart", NULL},
  {"claude-code", "SubagentStop", NULL},
  {"claude-code", "PermissionRequest", "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\",\"message\":\"{reason}\"}}}"},
  {"claude-code", "Notification", NULL},
  {"qwen", "PreToolUse", "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"{reason}\"}}"},
  {"qwen", "UserPromptSubmit", "{\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"qwen", "PostToolUse", "{\"continue\":false,\"stopReason\":\"{reason}\",\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"qwen", "PostToolUseFailure", "{\"continue\":false,\"stopReason\":\"{reason}\",\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"qwen", "Stop", NULL},
  {"qwen", "SessionStart", NULL},
  {"qwen", "SessionEnd", NULL},
  {"qwen", "PreCompact", NULL},
  {"qwen", "SubagentStart", NULL},
  {"qwen", "SubagentStop", NULL},
  {"qwen", "PermissionRequest", "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\",\"message\":\"{reason}\"}}}"},
  {"qwen", "Notification", NULL},
  {"factory", "PreToolUse", "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"{reason}\"}}"},
  {"factory", "UserPromptSubmit", "{\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"factory", "PostToolUse", "{\"continue\":false,\"stopReason\":\"{reason}\",\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"factory", "PostToolUseFailure", "{\"continue\":false,\"stopReason\":\"{reason}\",\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"factory", "Stop", NULL},
  {"factory", "SessionStart", NULL},
  {"factory", "SessionEnd", NULL},
  {"factory", "PreCompact", NULL},
  {"factory", "SubagentStop", NULL},
  {"factory", "Notification", NULL},
  {"codex", "PreToolUse", "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"{reason}\"}}"},
  {"codex", "UserPromptSubmit", "{\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"codex", "PostToolUse", "{\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"codex", "Stop", NULL},
  {"codex", "SessionStart", NULL},
  {"codex", "SessionEnd", NULL},
  {"codex", "PreCompact", NULL},
  {"codex", "SubagentStart", NULL},
  {"codex", "SubagentStop", NULL},
  {"codex", "PermissionRequest", "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\",\"message\":\"{reason}\"}}}"},
  {"gemini", "BeforeTool", "{\"decision\":\"deny\",\"reason\":\"{reason}\"}"},
  {"gemini", "BeforeAgent", "{\"decision\":\"deny\",\"reason\":\"{reason}\"}"},
  {"gemini", "AfterTool", "{\"decision\":\"deny\",\"reason\":\"{reason}\"}"},
  {"gemini", "AfterAgent", NULL},
  {"gemini", "SessionStart", NULL},
  {"gemini", "SessionEnd", NULL},
  {"gemini", "PreCompress", NULL},
  {"gemini", "Notification", NULL},
  {"copilot", "preToolUse", "{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"{reason}\"}"},
  {"copilot", "userPromptSubmitted", "{\"decision\":\"block\",\"reason\":\"{reason}\"}"},
  {"copilot", "postToolUse", "{\"modifiedResult\":{\"resultType\":\"failure\",\"textResultForLlm\":\"Tool result withheld by a hook: {reason}\"}}"},
  {"copilot", "postToolUseFailure", "{\"additionalContext\":\"Tool result withheld by a hook: {reason}\"}"},
  {"copilot", "agentStop", NULL},
  {"copilot", "sessionStart", NULL},
  {"copilot", "sessionEnd", NULL},
  {"copilot", "subagentStart", NULL},
  {"copilot", "subagentStop", NULL},
  {"copilot", "permissionRequest", "{\"behavior\":\"deny\",\"message\":\"{reason}\"}"},
  {"pi", "tool_call", "{\"deny\":\"{reason}\"}"},
  {"pi", "tool_result", "{\"content\":\"(output withheld by a hookbox hook): {reason}\",\"isError\":true}"},
  {"pi", "input", "{\"block\":\"{reason}\"}"},
  {"pi", "agent_end", NULL},
  {"pi", "session_start", NULL},
  {"pi", "session_shutdown", NULL},
  {"pi", "session_before_compact", NULL},
  {"opencode", "tool.execute.before", "{\"deny\":\"{reason}\"}"},
  {"opencode", "tool.execute.after", "{\"content\":\"(output withheld by a hookbox hook): {reason}\",\"isError\":true}"},
  {"opencode", "chat.message", "{\"block\":\"{reason}\"}"},
  {"opencode", "session.idle", NULL},
  {"opencode", "session.created", NULL},
  {"kilo", "tool.execute.before", "{\"deny\":\"{reason}\"}"},
  {"kilo", "tool.execute.after", "{\"content\":\"(output withheld by a hookbox hook): {reason}\",\"isError\":true}"},
  {"kilo", "chat.message", "{\"block\":\"{reason}\"}"},
  {"kilo", "session.idle", NULL},
  {"kilo", "session.created", NULL},
  {"cline", "PreToolUse", "{\"cancel\":true,\"errorMessage\":\"{reason}\"}"},
  {"cline", "PostToolUse", "{\"cancel\":true,\"errorMessage\":\"Tool result withheld by a hook: {reason}\"}"},
  {"cline", "TaskStart", NULL},
  {"cline", "UserPromptSubmit", NULL},
  {"cline", "TaskComplete", NULL},
  {"cline", "SessionShutdown", NULL},
  {0, 0, 0},
};

#endif
