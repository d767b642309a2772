// Corpus mode: one metrics row per trajectory of a dropped folder, many files or a JSONL of trajectories.
// Only rows and file handles are kept, never the trajectories' text: a row re-opens its trajectory from its
// File (the whole file, or the byte range of its JSONL line) when clicked.
import type { StateCreator } from 'zustand';
import type { CorpusRow } from '../../src/corpus/corpus-row';
import type { JudgeScores } from '../../src/corpus/judge';
import type { ParseIssue } from '../../src/model/types';

/** A dropped file of the corpus: the handle to re-read it and the path it was dropped as. */
export interface CorpusFileRef {
  file: File;
  /** Relative path for folder drops (`runs/7/rollout.jsonl`), else the file name. */
  path: string;
}

export interface CorpusEntry extends CorpusRow {
  /** Unique in the corpus: `<file index>:<line or 0>:<session index in the file>`. */
  key: string;
  /** Index into `files`. */
  source: number;
  /** Byte range of the trajectory in its file (the whole file when `line` is null). */
  start: number;
  end: number;
  /** A Parquet row (its number is `line`): the column its trajectory was read from. */
  parquetColumn?: string;
}

export type JudgeCell = { status: 'pending' } | { status: 'done'; scores: JudgeScores; cached: boolean } | { status: 'failed'; reason: string };

export interface CorpusProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  current: string | null;
}

export interface CorpusState {
  id: number;
  name: string;
  files: CorpusFileRef[];
  rows: CorpusEntry[];
  /** Problems found while measuring, errors first; capped (the count is exact). */
  issues: ParseIssue[];
  issueCount: number;
  progress: CorpusProgress;
  status: 'running' | 'done' | 'cancelled' | 'error';
  error: string | null;
  /** What counted tokens: `o200k_base` or `estimate`. */
  counter: string;
  startedAt: number;
  finishedAt: number | null;
}

export interface CorpusSlice {
  corpus: CorpusState | null;
  /** The corpus view is shown instead of the session. */
  corpusVisible: boolean;
  judge: Record<string, JudgeCell>;
  startCorpus(c: Pick<CorpusState, 'name' | 'files' | 'counter'>): number;
  addCorpusRows(id: number, rows: CorpusEntry[], issues: ParseIssue[], progress: CorpusProgress): void;
  finishCorpus(id: number, status: CorpusState['status'], error?: string | null): void;
  showCorpus(visible: boolean): void;
  closeCorpus(): void;
  setJudge(cells: Record<string, JudgeCell>): void;
}

/** Issues kept for display; more are only counted. */
export const MAX_CORPUS_ISSUES = 500;

let nextId = 1;

export const createCorpusSlice: StateCreator<CorpusSlice, [], [], CorpusSlice> = (set, get) => ({
  corpus: null,
  corpusVisible: false,
  judge: {},
  startCorpus: ({ name, files, counter }) => {
    const id = nextId++;
    const bytesTotal = files.reduce((n, f) => n + f.file.size, 0);
    set({
      corpus: {
        id,
        name,
        files,
        rows: [],
        issues: [],
        issueCount: 0,
        progress: { filesDone: 0, filesTotal: files.length, bytesDone: 0, bytesTotal, current: null },
        status: 'running',
        error: null,
        counter,
        startedAt: Date.now(),
        finishedAt: null,
      },
      corpusVisible: true,
      judge: {},
    });
    return id;
  },
  addCorpusRows: (id, rows, issues, progress) => {
    const c = get().corpus;
    if (!c || c.id !== id) return;
    const room = Math.max(0, MAX_CORPUS_ISSUES - c.issues.length);
    set({
      corpus: {
        ...c,
        rows: rows.length ? c.rows.concat(rows) : c.rows,
        issues: issues.length && room ? c.issues.concat(issues.slice(0, room)) : c.issues,
        issueCount: c.issueCount + issues.length,
        progress,
      },
    });
  },
  finishCorpus: (id, status, error = null) => {
    const c = get().corpus;
    if (!c || c.id !== id) return;
    set({ corpus: { ...c, status, error, finishedAt: Date.now(), progress: { ...c.progress, current: null } } });
  },
  showCorpus: (corpusVisible) => set({ corpusVisible }),
  closeCorpus: () => set({ corpus: null, corpusVisible: false, judge: {} }),
  setJudge: (cells) => set((s) => ({ judge: { ...s.judge, ...cells } })),
});
