// What a full session inherits from its preview when it takes the preview's tab: the user's place and
// the notes taken meanwhile.
import { beforeEach, describe, expect, it } from 'vitest';
import { emptySession } from '../../src/formats/adapter';
import { useApp } from '../store';
import { notesKey } from '../store/annotations-slice';
import { addNote } from './annotation-actions';
import { applyPendingView } from './pending-view';
import { carryPreviewNotes, keepPreviewPlace } from './session-open';
import type { AnalysisView } from '../../src/analysis/analysis-view';

const HASH = 'a'.repeat(64);
const info = { file: 'big.jsonl', bytes: 3_000_000, totalBytes: 30_000_000, records: 600, estimatedRecords: 6_000 };
const noPlan = { bundleAt: -1, linkAt: -1, linkMatch: false };
/** Just what applyPendingView reads of a view: the call count and the items. */
const viewOf = (calls: number, ids: string[]) => ({ calls: Array.from({ length: calls }, (_, index) => ({ index })), items: ids.map((id) => ({ id })) }) as unknown as AnalysisView;

beforeEach(() => {
  useApp.setState({ sessions: [], activeKey: null, previewLoads: {}, annotations: {}, notesReady: {}, callIndex: 0, selectedItemId: null, panel: 'budget', leftView: 'context', rule: 'auto' });
});

describe('keepPreviewPlace', () => {
  it('opens the full session at the preview’s call, item, panel and left view', () => {
    const key = useApp.getState().showPreview(emptySession('claude-code', 'big.jsonl', 'big'), info);
    useApp.setState({ callIndex: 41, selectedItemId: 'u-17', panel: 'cache', leftView: 'transcript' });
    const full = emptySession('claude-code', 'big.jsonl', 'big');
    keepPreviewPlace(key, [full], noPlan);
    useApp.setState({ callIndex: 0, selectedItemId: null, panel: 'budget', leftView: 'context' }); // as a new inspector starts
    expect(applyPendingView(full, viewOf(300, ['u-17']))).toBe(true);
    expect(useApp.getState()).toMatchObject({ callIndex: 41, selectedItemId: 'u-17', panel: 'cache', leftView: 'transcript' });
  });

  it('keeps a call the address named beyond the preview’s last one', () => {
    const key = useApp.getState().showPreview(emptySession('claude-code', 'big.jsonl', 'big'), info);
    useApp.setState({ callIndex: 68 }); // the preview's last call, where the address's turn 300 was clamped
    const full = emptySession('claude-code', 'big.jsonl', 'big');
    keepPreviewPlace(key, [full], noPlan, 300);
    expect(applyPendingView(full, viewOf(600, []))).toBe(true);
    expect(useApp.getState().callIndex).toBe(299);
  });

  it('leaves the view to a share link or bundle that waits for the session, and does nothing for a preview in the background', () => {
    const key = useApp.getState().showPreview(emptySession('claude-code', 'big.jsonl', 'big'), info);
    const linked = emptySession('claude-code', 'big.jsonl', 'big');
    keepPreviewPlace(key, [linked], { bundleAt: -1, linkAt: 0, linkMatch: true });
    expect(applyPendingView(linked, viewOf(10, []))).toBe(false);
    useApp.setState({ activeKey: 'other#1' });
    const behind = emptySession('claude-code', 'big.jsonl', 'big');
    keepPreviewPlace(key, [behind], noPlan);
    expect(applyPendingView(behind, viewOf(10, []))).toBe(false);
  });
});

describe('carryPreviewNotes', () => {
  it('moves notes taken on the preview to the full session’s hash', () => {
    const key = useApp.getState().showPreview(emptySession('claude-code', 'big.jsonl', 'big'), info);
    addNote(notesKey({ key, hash: null }), { target: { kind: 'item', itemId: 'u-17' }, note: 'pool size is 5 here', tags: ['config'] });
    const full = emptySession('claude-code', 'big.jsonl', 'big');
    useApp.getState().finishLoad(['big.jsonl'], [full], [], [{ hash: HASH, sourceUrls: [] }], key);
    carryPreviewNotes(key, full);
    expect(useApp.getState().annotations[HASH]!.map((a) => a.note)).toEqual(['pool size is 5 here']);
  });
});
