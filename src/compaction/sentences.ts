// Sentence splitting and clipping, shared by the offline summarizer's two styles (schema and reasoning).
/** Sentences of a text: lines, then sentence ends followed by whitespace (a dot inside `v2.14.3` is no end). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((s) => s.replace(/^\s*(?:[-*•>]|#{1,6}|\d+[.)])\s+/, '').replace(/\s+/g, ' ').trim())
    .filter((s) => s !== '');
}

/** At most `max` words; a sentence's closing period goes (entries are joined with `; `). */
export function clipWords(s: string, max: number): string {
  const words = s.split(/\s+/).filter(Boolean);
  return words.length <= max ? s.replace(/(?<!\.)\.$/, '') : `${words.slice(0, max).join(' ')} …`;
}
