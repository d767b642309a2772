import { describe, expect, it } from 'vitest';
import { hasControls, showControls } from './visible-text';

describe('showControls', () => {
  it('shows bidi overrides, isolates and marks as named marks, so they reorder nothing', () => {
    expect(showControls('report\u202Efdp.exe')).toBe('report⟨RLO⟩fdp.exe');
    expect(showControls('a\u2066b\u2069c\u200Fd\u061Ce')).toBe('a⟨LRI⟩b⟨PDI⟩c⟨RLM⟩d⟨ALM⟩e');
  });

  it('shows C0 and C1 controls and DEL, and keeps tabs and line breaks', () => {
    expect(showControls('a\u0000b\u001bc\u007fd\u0085e')).toBe('a␀b␛c␡d⟨U+0085⟩e');
    expect(showControls('line 1\n\tline 2\r\n')).toBe('line 1\n\tline 2\r\n');
  });

  it('leaves ordinary text, right-to-left scripts included, as it is', () => {
    const text = 'שלום world مرحبا 日本語 — ok';
    expect(showControls(text)).toBe(text);
    expect(hasControls(text)).toBe(false);
    expect(hasControls('x\u202Ey')).toBe(true);
    // The global pattern keeps no state between calls.
    expect(hasControls('x\u202Ey')).toBe(true);
  });
});
