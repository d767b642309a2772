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
 * reported prompt was larger: the provider served it, so the table is wrong for this model or
 * this deployment (Claude's 1M-token beta, a newer DeepSeek behind an Anthropic-compatible endpoint) and the window is
 * not known. Null when not known.
 */
export function sessionContextWindow(session: WindowSource): number | null {
  const w = windowOf(session);
  return w.reported ?? (w.known !== null && w.largest > w.known ? null : w.known);
}

/**
 * Why the window is not known though the model is listed: the listed window and the largest prompt a call reported,
 * which did not fit in it. Null when the table was not overruled.
 */
export function overruledContextWindow(session: WindowSource): { listed: number; served: number } | null {
  const w = windowOf(session);
  return w.reported === null && w.known !== null && w.largest > w.known ? { listed: w.known, served: w.largest } : null;
}

type WindowSource = Pick<Session, 'contextWindow' | 'responses' | 'model'>;

function windowOf(session: WindowSource): { reported: number | null; known: number | null; largest: number } {
  const known = knownContextWindow(session.model);
  if (session.contextWindow) return { reported: session.contextWindow, known, largest: 0 };
  let largest = 0;
  for (const r of session.responses) {
    const u = r.usage;
    if (!u) continue;
    if (u.contextWindow) return { reported: u.contextWindow, known, largest };
    largest = Math.max(largest, promptTokens(u) ?? 0);
  }
  return { reported: null, known, largest };
}
