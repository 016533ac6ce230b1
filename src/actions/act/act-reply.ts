import type { ActResult, StepOutcome } from './act.js';

// What each family expects back after its actions ran, ready to send: Anthropic tool_result blocks, an
// OpenAI computer_call_output, Gemini function responses, or for the text families the next user turn.
// The screenshot goes in where the family wants it when its bytes are given (the library); the MCP tool
// leaves them out of structuredContent, since the same image is in the result's content.

const failed = (s: StepOutcome) =>
  s.status === 'refused' || s.status === 'not_run' || s.status === 'unsupported';

function textOf(steps: StepOutcome[]): string {
  return steps.map((s) => `${s.name}: ${s.message}`).join('\n');
}

/** The steps one reply entry answers: from its first step up to the next entry's. */
function slices<T extends { step: number }>(entries: T[], steps: StepOutcome[]): Array<[T, StepOutcome[]]> {
  return entries.map((e, i) => [e, steps.slice(e.step, entries[i + 1]?.step ?? steps.length)]);
}

/**
 * What a computer-use model's family expects back after its `browser_act` batch ran, ready to send as its
 * next input: Anthropic tool_result blocks, an OpenAI computer_call_output, Gemini function responses, or for
 * the text families (UI-TARS, Qwen) the next user turn. Pass the after-batch screenshot's bytes as `image` to
 * have it put where the family wants it; without them the reply carries text and ids only.
 */
export function familyReply(
  r: ActResult,
  image?: { base64: string; mimeType: string },
): Record<string, unknown> {
  const url = r.screenshot?.frame.capture.url;
  switch (r.family) {
    case 'anthropic': {
      const ids: Array<{ id?: string; step: number }> = r.batch.reply.toolUseIds ?? [];
      const entries = ids.length > 0 ? ids : [{ step: 0 }];
      const blocks = slices(entries, r.steps).map(([e, steps], i) => ({
        type: 'tool_result',
        ...(e.id !== undefined ? { tool_use_id: e.id } : {}),
        ...(steps.some(failed) ? { is_error: true } : {}),
        content: [
          { type: 'text', text: textOf(steps) },
          ...(image && i === entries.length - 1
            ? [{ type: 'image', source: { type: 'base64', media_type: image.mimeType, data: image.base64 } }]
            : []),
        ],
      }));
      return { role: 'user', content: blocks };
    }
    case 'openai': {
      const acked = r.batch.reply.pendingSafetyChecks ?? [];
      return {
        type: 'computer_call_output',
        ...(r.batch.reply.callId !== undefined ? { call_id: r.batch.reply.callId } : {}),
        ...(acked.length > 0 ? { acknowledged_safety_checks: acked } : {}),
        output: {
          type: 'computer_screenshot',
          ...(image ? { image_url: `data:${image.mimeType};base64,${image.base64}` } : {}),
        },
        ...(url ? { current_url: url } : {}),
      };
    }
    case 'gemini': {
      const calls = r.batch.reply.functionCalls ?? [];
      const confirmed = r.batch.reply.safetyDecision?.decision === 'require_confirmation';
      return {
        role: 'user',
        parts: slices(calls, r.steps).map(([call, steps]) => ({
          functionResponse: {
            name: call.name,
            ...(call.id !== undefined ? { id: call.id } : {}),
            response: {
              ...(url ? { url } : {}),
              ...(steps.some(failed) ? { error: textOf(steps) } : {}),
              ...(confirmed ? { safety_acknowledgement: 'true' } : {}),
            },
            ...(image ? { parts: [{ inlineData: { mimeType: image.mimeType, data: image.base64 } }] } : {}),
          },
        })),
      };
    }
    default:
      // UI-TARS and Qwen agents go on with the new screenshot as the next user turn, in the
      // OpenAI-compatible chat shape their servers (vLLM, SGLang, DashScope) take.
      return {
        role: 'user',
        content: [
          { type: 'text', text: textOf(r.steps) },
          ...(image
            ? [{ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.base64}` } }]
            : []),
        ],
      };
  }
}
