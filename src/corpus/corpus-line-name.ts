// The synthetic name of one trajectory in a corpus file: `file.jsonl#L12` (a JSONL line, or a Parquet row). Kept
// apart from the loader so the page can name a row without loading the format registry.

/** The synthetic file name of a corpus line: what its items' `source.file` and its issues name. */
export function corpusLineName(file: string, line: number): string {
  return `${file}#L${line}`;
}

/** `file.jsonl#L12` → {file, line}; null for an ordinary name. */
export function parseCorpusLineName(name: string): { file: string; line: number } | null {
  const m = /^(.*)#L(\d+)$/.exec(name);
  return m ? { file: m[1]!, line: Number(m[2]) } : null;
}
