// The context window a session's calls ran in: one answer for the view, the replays, the CLI and corpus rows.
import type { Session } from '../model/types';
import { promptTokens } from '../model/usage';

/** Context windows of common models, used when the session does not report one. */
export function knownContextWindow(model: string | null): number | null {
  if (!model) return null;
  const m = model.toLowerCase();
  if (m.includes('claude')) return 200_000;
  if (m.includes('gpt-4.1')) return 1_047_576;
  if (m.includes('gpt-5') || m.includes('codex')) return 400_000;
  if (m.includes('gpt-4o') || m.includes('o1') || m.includes('o3') || m.includes('o4')) return 128_000;
  if (m.includes('deepseek')) return 128_000;
  if (m.includes('qwen')) return 131_072;
  return null;
}

/**
 * The window the file reports (the session's, else a call's usage); else the model's known window, unless a call's
 * reported prompt was larger: the provider served it, so the table is wrong for this model or this deployment
 * (Claude's 1M-token beta, a newer DeepSeek behind an Anthropic-compatible endpoint) and the window is not known.
 * `overruled` says why then: the listed window and the largest prompt a call reported.
 */
export function contextWindowOf(session: WindowSource): { tokens: number | null; overruled: { listed: number; served: number } | null } {
  if (session.contextWindow) return { tokens: session.contextWindow, overruled: null };
  let largest = 0;
  for (const r of session.responses) {
    const u = r.usage;
    if (!u) continue;
    if (u.contextWindow) return { tokens: u.contextWindow, overruled: null };
    largest = Math.max(largest, promptTokens(u) ?? 0);
  }
  const known = knownContextWindow(session.model);
  return known !== null && largest > known ? { tokens: null, overruled: { listed: known, served: largest } } : { tokens: known, overruled: null };
}

/** The window alone (see `contextWindowOf`); null when not known. */
export const sessionContextWindow = (session: WindowSource): number | null => contextWindowOf(session).tokens;

type WindowSource = Pick<Session, 'contextWindow' | 'responses' | 'model'>;
