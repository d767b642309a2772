// The keys (see key-index.ts) a text must hold for `foundIn` to find an identifier in it, so that a look-up
// can check only the items that hold them. Word rules come from `requiredWords`; identifiers that `foundIn`
// matches through the text's own identifiers (dates, quantities, phone numbers) are narrowed by the digit
// runs any such match must show:
// - a quantity `1,024 ms` matches an item quantity with the same canonical key (the index lists the keys of
//   the amounts the quantity pass matches), or the value itself as a token; a setting `pool_size: 20`
//   matches one whose number reads `20` once thousands are removed;
// - a date matches an item date with the same month and day (a run `7` or `07` with the month's run `10`
//   or its name `oct`/`october`), or, for a bare year, any date in that year (a run `2025`);
// - a version `v2` matches `v2` or `2`, with its first run or with the `v` on it;
// - a phone number `(510) 555-0136` matches the same digits written as a phone number (a run `555`), a
//   plain number (`5105550136`) or with thousands separators (a last run `136`).
// Each rule names runs the matching regexes bound on both sides, so a match always shows them whole.
import type { Identifier } from './identifiers';
import { digitKey, quantityIndexKey } from './key-index';
import { isPhone, keysOf, requiredWords } from './later-index';
import { normalizeNumber, parseDate, type DateParts } from './normalize';

/** Items that may hold the identifier hold every key of at least one group; null when every item may. */
export type MentionKeys = string[][] | null;

type KeyReader = (lower: string, skipFirst?: boolean) => string[];

const SETTING = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)["']?\s*[:=]?\s*([\d,.]+)$/;

// Every spelling the date pattern accepts for each month (`Sept?(?:ember)?` also reads `Sepember`).
const MONTH_WORDS: string[][] = [
  ['jan', 'january'],
  ['feb', 'february'],
  ['mar', 'march'],
  ['apr', 'april'],
  ['may'],
  ['jun', 'june'],
  ['jul', 'july'],
  ['aug', 'august'],
  ['sep', 'sept', 'sepember', 'september'],
  ['oct', 'october'],
  ['nov', 'november'],
  ['dec', 'december'],
];

/** Digits before the decimal point of a normalized number, or null when it is not a plain number. */
function integerDigits(normalized: string): string | null {
  const int = normalized.split('.')[0]!;
  return /^\d+$/.test(int) ? int : null;
}

function quantityKeys(v: string, read: KeyReader): MentionKeys {
  const setting = SETTING.exec(v);
  if (setting) {
    const digits = integerDigits(normalizeNumber(setting[2]!));
    return digits ? [[digitKey(digits)]] : null;
  }
  // An item quantity with the same key (the quantity pass matched it), or the value as a token.
  const words = read(v.toLowerCase());
  return words.length > 0 ? [[quantityIndexKey(v)], words] : null;
}

function dateKeys(d: DateParts): MentionKeys {
  if (d.month === null) return d.year === null ? null : [[digitKey(String(d.year))]];
  if (d.day === null || d.month < 1 || d.month > 12) return null;
  const day = digitKey(String(d.day));
  return [[day, digitKey(String(d.month))], ...MONTH_WORDS[d.month - 1]!.map((w) => [day, w])];
}

function phoneKeys(v: string): MentionKeys {
  const digits = v.replace(/\D/g, '');
  return [[digitKey(digits.slice(-7, -4))], [digitKey(digits)], [digitKey(digits.slice(-3))]];
}

/**
 * The key groups of an identifier. `read` gives the keys of a part of it (`outerKeysOf` for only the outermost
 * ones, which hold the others).
 */
export function mentionKeys(id: Identifier, read: KeyReader = keysOf): MentionKeys {
  switch (id.kind) {
    case 'quantity':
      return quantityKeys(id.value, read);
    case 'date': {
      const d = parseDate(id.value);
      if (d) return dateKeys(d);
      break;
    }
    case 'number':
      if (isPhone(id.value)) return phoneKeys(id.value);
      break;
    case 'version': {
      // `1.2` may be written `v1.2`: the first run is the core's or the core's with the `v`.
      const core = id.value.replace(/^v/i, '').toLowerCase();
      const bare = read(core);
      const prefixed = read(`v${core}`);
      return bare.length > 0 && prefixed.length > 0 ? [bare, prefixed] : null;
    }
    default:
      break;
  }
  const words = requiredWords(id, read);
  return words ? [words] : null;
}
