// Text the CLI prints carries names and content from session files, which are untrusted: an escape sequence in a
// session id or a tool result would recolor, move the cursor, retitle the terminal or hide what follows. Control
// characters become the visible marks the app shows (␛, ␀, ⟨RLO⟩); a carriage return too, which would otherwise
// let a line overwrite itself. Line feeds and tabs stay.
import { showControls } from '../model/visible-text';

export function terminalText(text: string): string {
  return showControls(text).replace(/\r/g, '\u240d');
}
