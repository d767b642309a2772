// What each session format is called on the page, in exports and in the library list.
import type { Session } from '../../src/model/types';

const FORMAT_LABEL: Record<Session['format'], string> = {
  'claude-code': 'Claude Code session',
  codex: 'Codex CLI rollout',
  openhands: 'OpenHands events',
  'openhands-sdk': 'OpenHands SDK conversation',
  livekit: 'LiveKit ChatContext',
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
  'self-sum': 'Self-Sum trajectory',
  'agent-omit': 'Agent-Omit trajectory',
  sharegpt: 'ShareGPT / AgentGym',
  'reasoning-trace': 'Iterated-summarization trace',
  'compaction-log': 'Compaction log',
  'request-log': 'Request log',
  'swe-agent': 'SWE-agent trajectory',
  'mini-swe-agent': 'mini-swe-agent trajectory',
  atif: 'ATIF trajectory',
  'tau-bench': 'tau-bench results',
  inspect: 'Inspect AI log',
  'gemini-cli': 'Gemini CLI session',
  cline: 'Cline / Roo Code task',
};

export function formatLabel(f: Session['format']): string {
  return FORMAT_LABEL[f];
}
