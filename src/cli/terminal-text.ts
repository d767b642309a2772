// Text the CLI prints carries names and content from session files, which are untrusted: an escape sequence in a
// session id or a tool result would recolor, move the cursor, retitle the terminal or hide what follows. Control
// characters become the visible marks the app shows (␛, ␀, ⟨RLO⟩); a carriage return too, which would otherwise
// let a line overwrite itself. Line feeds and tabs stay: they are the report's own layout.
import { showControls } from '../model/visible-text';

export function terminalText(text: string): string {
  return showControls(text).replace(/\r/g, '\u240d');
}

/**
 * One field from a file (a session id, a file or model name, an identifier, a message) inside a line of a text
 * report: its line breaks show as marks (␊, ␍). A line break of its own would let the field start a line, and a
 * CI runner reads a line that starts with `::` as a workflow command (`::error …`, `::add-mask::`), in any output
 * format, not only `--format github`; it would also let a field forge a line of the report (`check passed: …`).
 */
export function oneLine(text: string): string {
  return text.replace(/\r/g, '\u240d').replace(/\n/g, '\u240a');
}
