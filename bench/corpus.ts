// The texts the benches count: every item text (and tool schema) of the repo's fixtures and demos and, when
// present, of ../shared/samples, each file loaded with the engine's own loader; plus the token module's own
// sample texts. The samples are only read at run time, never copied into the repo.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFiles } from '../src/load/loader';
import type { Item, Session } from '../src/model/types';

const repo = fileURLToPath(new URL('..', import.meta.url));

export const CORPUS_DIRS = [
  join(repo, 'src/formats/__fixtures__'),
  join(repo, 'public/demos'),
  join(repo, '../shared/samples'),
];
const OWN_SAMPLES = join(repo, 'src/tokens/__fixtures__');

export interface CorpusSource {
  dir: string;
  files: number;
  texts: number;
  chars: number;
}

export interface Corpus {
  /** Distinct texts, in load order. */
  texts: string[];
  sources: CorpusSource[];
}

function textsOf(s: Session): string[] {
  const out: string[] = [];
  const add = (items: Item[]) => {
    for (const i of items) if (i.text) out.push(i.text);
  };
  add(s.items);
  for (const r of s.requests) {
    add(r.items);
    add(r.output);
    if (r.tools) out.push(r.tools);
  }
  for (const c of s.sidechains) add(c.items);
  return out;
}

function filesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => !f.endsWith('.md') && statSync(join(dir, f)).isFile())
    .sort();
}

export function buildCorpus(): Corpus {
  const seen = new Set<string>();
  const texts: string[] = [];
  const sources: CorpusSource[] = [];
  const take = (dir: string, files: number, found: string[]) => {
    let n = 0;
    let chars = 0;
    for (const t of found) {
      if (seen.has(t)) continue;
      seen.add(t);
      texts.push(t);
      n++;
      chars += t.length;
    }
    sources.push({ dir: dir.replace(repo, ''), files, texts: n, chars });
  };
  for (const dir of CORPUS_DIRS) {
    const files = filesIn(dir);
    if (files.length === 0) continue;
    const found: string[] = [];
    for (const f of files) {
      const { sessions } = loadFiles([{ name: f, bytes: readFileSync(join(dir, f)) }]);
      for (const s of sessions) found.push(...textsOf(s));
    }
    take(dir, files.length, found);
  }
  const own = filesIn(OWN_SAMPLES);
  take(OWN_SAMPLES, own.length, own.map((f) => readFileSync(join(OWN_SAMPLES, f), 'utf8')));
  return { texts, sources };
}

/** Texts that stress tokenizers differently from transcripts: scripts, emoji, special-token text, long runs. */
export function edgeTexts(): string[] {
  let seed = 42;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const b64chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const base64 = Array.from({ length: 200_000 }, () => b64chars[Math.floor(rand() * 64)]).join('');
  const letters = Array.from({ length: 20_000 }, () => 'etaoinshrdlucmfw'[Math.floor(rand() * 16)]).join('');
  return [
    'Hello, world! <|endoftext|> <|im_start|>user<|im_end|> <|fim_prefix|>',
    '在第三次压缩之后，代理忘记了数据库的端口号。三回目の圧縮のあと、ポート番号を忘れました。압축 후에 포트 번호를 잊었습니다.',
    'Emoji 😀👍🏽🇺🇦 👨‍👩‍👧‍👦 and symbols → ≡ ∀ φ ∑ · — … ‘quotes’ «guillemets»',
    'Ünïcödé façade naïve coöperate Straße Ελληνικά русский العربية עברית हिन्दी ไทย',
    `${' '.repeat(3000)}indented\n${'\t'.repeat(500)}tabs\n${'\n'.repeat(400)}end`,
    `data:image/png;base64,${base64}`,
    letters,
    '='.repeat(5000) + '\n' + '-'.repeat(5000),
    '1234567890'.repeat(500),
  ];
}
