// The prompt a replay would send, measured from the provider's reported figures. Until a replay departs from the
// recording its history is the recording's, byte for byte, so a call's reported prompt is its size: a trigger is
// never fed an estimate where the provider's figure exists. Once the replay differs, the size is a reported prompt
// (the nearest call whose recorded context differs least) less the calibrated tokens of what the replay lacks and
// plus those of what it has beyond it, both calibrated on the same session (calibration.ts). Each figure carries an
// error band: zero where it is the reported figure, the calibration's spread over the tokens it estimates elsewhere.
import type { SessionCalibration } from '../analysis/calibration';
import type { CallContext } from '../analysis/context-types';
import type { Item } from '../model/types';

export type MeasureSource = 'reported' | 'anchored' | 'estimated';

export interface PromptMeasure {
  /** The whole prompt as the provider would count it (system prompt and tools the file never records included). */
  tokens: number;
  /** Half-width of the error band, in tokens (0 when `tokens` is the provider's reported figure). */
  band: number;
  /**
   * `reported`: the recorded call's own figure (the replay sends what the recording sent); `anchored`: a reported
   * prompt ± the calibrated difference; `estimated`: calibrated counts with no reported prompt to start from.
   */
  source: MeasureSource;
  /** 0-based call whose reported prompt the figure starts from; null when estimated. */
  anchor: number | null;
  /** Calibrated tokens the replay sends beyond the anchor's recorded prompt, and those of it the replay leaves out. */
  inserted: number;
  removed: number;
}

/** Relative error of a calibrated difference when the calibration has no spread of its own to offer. */
export const DIFF_UNCERTAINTY = 0.05;
const MAX_DIFF_UNCERTAINTY = 0.5;
/** …and when nothing was reported to fit against (a stand-in tokenizer). */
const UNFITTED_UNCERTAINTY = 0.25;

interface RecordedCall {
  ids: Map<string, Item>;
  /** Calibrated tokens of the recorded items, summed. */
  tokens: number;
}

export class ReplayMeter {
  private readonly textTokens = new WeakMap<Item, number>();
  private readonly recorded = new Map<number, RecordedCall>();
  /** Latest call at or before each index with a reported prompt, in the same calibration segment. */
  private readonly lastReported: (number | null)[];
  private readonly relError: number;
  private lastAnchor: number | null = null;

  constructor(
    private readonly calls: readonly CallContext[],
    private readonly calibration: SessionCalibration,
    private readonly count: (text: string) => number,
  ) {
    let last: number | null = null;
    this.lastReported = calls.map((_, k) => {
      const c = calibration.calls[k];
      if (last !== null && calibration.calls[last]!.segment !== c?.segment) last = null;
      if (c && c.reportedPrompt !== null && c.reportedPrompt > 0) last = k;
      return last;
    });
    // A fit over a handful of calls can report a spread of several hundred percent: half the difference is the most we claim.
    this.relError = calibration.fitSpread !== null ? Math.min(MAX_DIFF_UNCERTAINTY, Math.max(DIFF_UNCERTAINTY, calibration.fitSpread)) : calibration.fittedCalls > 0 ? DIFF_UNCERTAINTY : 0;
  }

  /** Calibrated tokens of one item at call k: the tokenizer scale and the per-item framing of its segment. */
  itemTokens(k: number, item: Item): number {
    const c = this.calibration.calls[k];
    let n = this.textTokens.get(item);
    if (n === undefined) {
      n = this.count(item.text);
      this.textTokens.set(item, n);
    }
    return c ? c.scale * n + c.perItem : n;
  }

  private recordedAt(j: number): RecordedCall {
    let r = this.recorded.get(j);
    if (!r) {
      const ids = new Map<string, Item>();
      let tokens = 0;
      for (const e of this.calls[j]!.entries) {
        ids.set(e.item.id, e.item);
        tokens += this.itemTokens(j, e.item);
      }
      r = { ids, tokens };
      // A handful of recorded calls are looked at around any call: keep the newest few.
      if (this.recorded.size > 6) this.recorded.delete(this.recorded.keys().next().value!);
      this.recorded.set(j, r);
    }
    return r;
  }

  /** What `live` (sent at call k) has beyond the recorded prompt of call j, and what it leaves out of it. */
  private diff(k: number, j: number, live: readonly Item[]): { inserted: number; removed: number; same: boolean } {
    const rec = this.recordedAt(j);
    let inserted = 0;
    let common = 0;
    let commonCount = 0;
    for (const it of live) {
      const r = rec.ids.get(it.id);
      if (r && (r === it || r.text === it.text)) {
        common += this.itemTokens(j, r);
        commonCount++;
      } else inserted += this.itemTokens(k, it);
    }
    const removed = Math.max(0, rec.tokens - common);
    const same = inserted === 0 && commonCount === rec.ids.size && (this.calls[j]!.tools ?? '') === (this.calls[k]!.tools ?? '');
    return { inserted, removed, same };
  }

  /** The calibrated whole prompt of call k from counts alone (no reported figure to start from). */
  private estimated(k: number, live: readonly Item[]): PromptMeasure {
    const c = this.calibration.calls[k];
    const tools = this.calls[k]!.tools;
    const counted = live.reduce((n, it) => n + this.itemTokens(k, it), 0) + (tools ? (c?.scale ?? 1) * this.count(tools) : 0);
    const tokens = Math.round((c?.prefixTokens ?? 0) + counted);
    const rel = c ? (c.uncertainty > 0 ? c.uncertainty : c.estimated ? UNFITTED_UNCERTAINTY : 0) : 0;
    return { tokens, band: Math.ceil(rel * tokens), source: 'estimated', anchor: null, inserted: 0, removed: 0 };
  }

  /**
   * The prompt of call k if the replay sends `live` (its items in order; the call's recorded tool schemas go with
   * it). Where `live` is exactly what the recording sent, this is the session's own figure for the call: reported,
   * or calibrated where nothing was reported (session-facts.ts reads the same figure).
   */
  measure(k: number, live: readonly Item[], remember = true): PromptMeasure {
    const own = this.calibration.calls[k];
    const candidates = new Set<number>();
    if (own?.reportedPrompt != null && own.reportedPrompt > 0) candidates.add(k);
    const prev = this.lastReported[k];
    if (prev !== null && prev !== undefined) candidates.add(prev);
    if (this.lastAnchor !== null && this.lastAnchor <= k && this.calibration.calls[this.lastAnchor]?.segment === own?.segment) candidates.add(this.lastAnchor);
    let best: { j: number; inserted: number; removed: number; same: boolean } | null = null;
    for (const j of candidates) {
      const d = this.diff(k, j, live);
      if (!best || d.inserted + d.removed < best.inserted + best.removed) best = { j, ...d };
    }
    if (best && best.same && best.j === k) {
      if (remember) this.lastAnchor = k;
      return { tokens: own!.contextTokens, band: 0, source: 'reported', anchor: k, inserted: 0, removed: 0 };
    }
    if (!best) {
      // Nothing reported in this segment: where the replay sends the recording's own prompt, the session's figure.
      const d = this.diff(k, k, live);
      if (d.same && own) return { tokens: own.contextTokens, band: Math.ceil(own.uncertainty * own.contextTokens), source: 'estimated', anchor: null, inserted: 0, removed: 0 };
      return this.estimated(k, live);
    }
    if (remember) this.lastAnchor = best.j;
    const reported = this.calibration.calls[best.j]!.contextTokens;
    const changed = best.inserted + best.removed;
    return {
      tokens: Math.max(0, Math.round(reported - best.removed + best.inserted)),
      band: Math.ceil(this.relError * changed),
      source: changed === 0 ? 'reported' : 'anchored',
      anchor: best.j,
      inserted: Math.round(best.inserted),
      removed: Math.round(best.removed),
    };
  }

  /** Tokens call k produced (its reported output, else the calibrated count of its output items). */
  outputTokens(k: number): number {
    const call = this.calls[k];
    if (!call) return 0;
    if (call.usage?.output != null) return call.usage.output;
    return Math.round(call.output.reduce((n, it) => n + this.itemTokens(k, it), 0));
  }
}
