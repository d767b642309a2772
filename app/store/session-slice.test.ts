// How loads change the open sessions: a big file's preview gets a tab of its own, and its full session
// (or its load's error) takes that tab's place.
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { emptySession } from '../../src/formats/adapter';
import type { ParseIssue } from '../../src/model/types';
import { createSessionSlice, type PreviewInfo, type SessionSlice } from './session-slice';

const session = (id: string) => emptySession('claude-code', `${id}.jsonl`, id);
const store = () => create<SessionSlice>()(createSessionSlice);
const info: PreviewInfo = { file: 'big.jsonl', bytes: 3_900_000, totalBytes: 99_900_000, records: 1034, estimatedRecords: 26_000 };
const issue: ParseIssue = { file: 'big.jsonl', line: null, field: null, message: 'the loader worker stopped: out of memory', severity: 'error' };

describe('session slice', () => {
  it('adds what a load brings and makes the first of it active', () => {
    const s = store();
    s.getState().beginLoad();
    s.getState().finishLoad(['a.jsonl'], [session('a')], []);
    expect(s.getState().sessions.map((x) => x.session.id)).toEqual(['a']);
    expect(s.getState().activeKey).toBe(s.getState().sessions[0]!.key);
    expect(s.getState().loads).toBe(0);
    expect(s.getState().progress).toBeNull();
  });

  it('opens a preview in a new active tab with no hash, and moves its load progress off the global bar', () => {
    const s = store();
    s.getState().finishLoad(['a.jsonl'], [session('a')], []);
    s.getState().beginLoad();
    s.getState().setProgress({ file: 'big.jsonl', loaded: 0, total: 99_900_000, phase: 'reading' });
    const key = s.getState().showPreview(session('big'), info);
    const st = s.getState();
    expect(st.sessions.map((x) => x.key)).toEqual([st.sessions[0]!.key, key]);
    expect(st.activeKey).toBe(key);
    expect(st.sessions[1]).toMatchObject({ key, hash: null, preview: info });
    expect(st.sessions[1]!.files).toBeUndefined();
    expect(st.progress).toBeNull();
    expect(st.previewLoads[key]).toEqual({ progress: { file: 'big.jsonl', loaded: 0, total: 99_900_000, phase: 'reading' }, full: null, ready: false });
    s.getState().setPreviewProgress(key, { file: 'big.jsonl', loaded: 50, total: 100, phase: 'reading' });
    expect(s.getState().previewLoads[key]?.progress?.loaded).toBe(50);
  });

  it('parks the full session beside its preview under a reserved key, which the finished load then uses', () => {
    const s = store();
    s.getState().beginLoad();
    const key = s.getState().showPreview(session('big'), info);
    const full = session('big');
    const fullKey = s.getState().stagePreviewFull(key, full);
    expect(fullKey).not.toBe(key);
    expect(s.getState().previewLoads[key]).toMatchObject({ full: { key: fullKey, session: full }, ready: false });
    expect(s.getState().sessions.map((x) => x.key)).toEqual([key]);
    s.getState().markPreviewFullReady(key);
    expect(s.getState().previewLoads[key]?.ready).toBe(true);
    s.getState().finishLoad(['big.jsonl'], [full], [], [{ key: fullKey, hash: 'h1', sourceUrls: [] }], key);
    expect(s.getState().sessions).toEqual([{ key: fullKey, session: full, hash: 'h1', sourceUrls: [] }]);
    expect(s.getState().activeKey).toBe(fullKey);
  });

  it('gives a preview and its full session different keys', () => {
    const s = store();
    s.getState().beginLoad();
    const key = s.getState().showPreview(session('big'), info);
    s.getState().finishLoad(['big.jsonl'], [session('big')], [], [{ hash: 'h1', sourceUrls: [], files: [] }], key);
    const full = s.getState().sessions[0]!;
    expect(full.key).not.toBe(key);
    expect(full.preview).toBeUndefined();
    expect(full.hash).toBe('h1');
  });

  it('puts the full session in the preview tab’s place and front, keeping the other tabs', () => {
    const s = store();
    s.getState().finishLoad(['a.jsonl'], [session('a')], []);
    s.getState().beginLoad();
    const key = s.getState().showPreview(session('big'), info);
    s.getState().finishLoad(['b.jsonl'], [session('b')], []); // another load ends meanwhile, and takes the front
    s.getState().setActive(key);
    s.getState().finishLoad(['big.jsonl'], [session('big'), session('big-2')], [], undefined, key);
    const st = s.getState();
    expect(st.sessions.map((x) => x.session.id)).toEqual(['a', 'big', 'big-2', 'b']);
    expect(st.activeKey).toBe(st.sessions[1]!.key);
    expect(st.previewLoads).toEqual({});
    expect(st.loads).toBe(0);
  });

  it('leaves the front where the user put it when the preview was in the background', () => {
    const s = store();
    s.getState().finishLoad(['a.jsonl'], [session('a')], []);
    const a = s.getState().activeKey!;
    s.getState().beginLoad();
    const key = s.getState().showPreview(session('big'), info);
    s.getState().setActive(a);
    s.getState().finishLoad(['big.jsonl'], [session('big')], [], undefined, key);
    expect(s.getState().activeKey).toBe(a);
    expect(s.getState().sessions.map((x) => x.session.id)).toEqual(['a', 'big']);
  });

  it('removes the preview when its load fails, reports the file, and keeps what was open', () => {
    const s = store();
    s.getState().finishLoad(['a.jsonl'], [session('a')], []);
    s.getState().beginLoad();
    const key = s.getState().showPreview(session('big'), info);
    s.getState().finishLoad(['big.jsonl'], [], [issue], undefined, key);
    const st = s.getState();
    expect(st.sessions.map((x) => x.session.id)).toEqual(['a']);
    expect(st.activeKey).toBe(st.sessions[0]!.key);
    expect(st.reports[0]).toMatchObject({ files: ['big.jsonl'], issues: [issue], loadedSessions: 0 });
    expect(st.previewLoads).toEqual({});
  });

  it('adds the full session as a new tab when its preview was closed before it arrived', () => {
    const s = store();
    s.getState().beginLoad();
    const key = s.getState().showPreview(session('big'), info);
    s.getState().closeSession(key);
    expect(s.getState().sessions).toEqual([]);
    expect(s.getState().previewLoads).toEqual({});
    s.getState().setPreviewProgress(key, { file: 'big.jsonl', loaded: 1, total: 2, phase: 'reading' });
    expect(s.getState().previewLoads).toEqual({});
    s.getState().finishLoad(['big.jsonl'], [session('big')], [], undefined, key);
    expect(s.getState().sessions.map((x) => x.session.id)).toEqual(['big']);
  });

  it('sets the instruction files of a session, drops the field when they are all removed, and leaves a closed session alone', () => {
    const s = store();
    s.getState().finishLoad(['a.jsonl'], [session('a')], []);
    const key = s.getState().sessions[0]!.key;
    const file = { id: 1, path: 'CLAUDE.md', text: '- port 5432', size: 11 };
    s.getState().setInstructionFiles(key, [file]);
    expect(s.getState().sessions[0]!.instructionFiles).toEqual([file]);
    s.getState().setInstructionFiles(key, []);
    expect(s.getState().sessions[0]).not.toHaveProperty('instructionFiles');
    const before = s.getState().sessions;
    s.getState().setInstructionFiles('gone#9', [file]);
    expect(s.getState().sessions).toBe(before);
  });
});
