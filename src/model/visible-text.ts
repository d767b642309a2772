// Untrusted text shown to a user: control characters become visible marks instead of acting. A right-to-left
// override (U+202E) in a file name, model name or title would otherwise reorder the text around it, our own
// labels included ("Trojan Source"); a NUL or an escape would vanish or garble a report. Tabs and line breaks
// stay as they are. Views also isolate such names (<bdi>), so even ordinary right-to-left text stays inside.

const BIDI = new Map<number, string>([
  [0x061c, 'ALM'],
  [0x200e, 'LRM'],
  [0x200f, 'RLM'],
  [0x202a, 'LRE'],
  [0x202b, 'RLE'],
  [0x202c, 'PDF'],
  [0x202d, 'LRO'],
  [0x202e, 'RLO'],
  [0x2066, 'LRI'],
  [0x2067, 'RLI'],
  [0x2068, 'FSI'],
  [0x2069, 'PDI'],
]);

// C0 controls but tab, line feed and carriage return; DEL; C1 controls; the bidi controls above.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The mark shown for one control character: ␀ ␛ … for C0, ⟨RLO⟩ for bidi controls, ⟨U+0085⟩ for C1. */
export function controlMark(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20) return String.fromCodePoint(0x2400 + cp);
  if (cp === 0x7f) return '\u2421';
  const bidi = BIDI.get(cp);
  if (bidi) return `\u27e8${bidi}\u27e9`;
  return `\u27e8U+${cp.toString(16).toUpperCase().padStart(4, '0')}\u27e9`;
}

/** `text` with every control character (but tab and line breaks) replaced by its visible mark. */
export function showControls(text: string): string {
  return text.replace(CONTROLS, controlMark);
}

/** Whether `text` holds a character `showControls` would replace. */
export function hasControls(text: string): boolean {
  CONTROLS.lastIndex = 0;
  const found = CONTROLS.test(text);
  CONTROLS.lastIndex = 0;
  return found;
}
