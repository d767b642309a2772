import { describe, expect, it } from 'vitest';
import type { Identifier, IdentifierKind } from './identifiers';
import { canonicalKey, containsNumber, containsPathTail, containsToken, dateSupported, datesMatch, foundIn, haystack, parseDate, quantityKey, referencedIn } from './normalize';

const id = (kind: IdentifierKind, value: string): Identifier => ({ kind, value, index: 0 });
const isIn = (kind: IdentifierKind, value: string, text: string) => foundIn(id(kind, value), haystack(text));

describe('parseDate', () => {
  it('reads ISO, month-name and day-first dates, with or without a year, and bare years', () => {
    expect(parseDate('2025-10-07T08:00:00Z')).toEqual({ year: 2025, month: 10, day: 7 });
    expect(parseDate('October 7, 2025')).toEqual({ year: 2025, month: 10, day: 7 });
    expect(parseDate('Oct 7 2025')).toEqual({ year: 2025, month: 10, day: 7 });
    expect(parseDate('7 October')).toEqual({ year: null, month: 10, day: 7 });
    expect(parseDate('2023')).toEqual({ year: 2023, month: null, day: null });
    expect(parseDate('release 7')).toBeNull();
  });
});

describe('datesMatch', () => {
  it('matches the same day whatever the format, and a yearless day against any year', () => {
    expect(datesMatch(parseDate('October 7, 2025')!, parseDate('2025-10-07')!)).toBe(true);
    expect(datesMatch(parseDate('Oct 7 2025')!, parseDate('October 7, 2025')!)).toBe(true);
    expect(datesMatch(parseDate('October 7')!, parseDate('2026-10-07')!)).toBe(true);
    expect(datesMatch(parseDate('2025-10-07')!, parseDate('October 7, 2023')!)).toBe(false);
    expect(datesMatch(parseDate('October 7')!, parseDate('October 8')!)).toBe(false);
    expect(datesMatch(parseDate('2025')!, parseDate('2025-10-07')!)).toBe(true);
  });
});

describe('dateSupported', () => {
  const sources = [haystack('I bought them on October 7.\n{"purchase_date":"2025-10-07","warranty_expires":"2026-10-07"}')];

  it('backs a stated year only with that same date in that year', () => {
    expect(dateSupported('October 7, 2025', sources)).toBe(true);
    expect(dateSupported('October 7, 2026', sources)).toBe(true);
    expect(dateSupported('October 7, 2023', sources)).toBe(false);
    expect(dateSupported('October 7', sources)).toBe(true);
    expect(dateSupported('October 9', sources)).toBe(false);
  });

  it('backs a year added to a yearless day only when the sources name that year', () => {
    expect(dateSupported('October 7, 2023', [haystack('on October 7 (FY 2023 budget)')])).toBe(true);
    expect(dateSupported('October 7, 2023', [haystack('on October 7')])).toBe(false);
    expect(dateSupported('2023', [haystack('since 2023')])).toBe(true);
    expect(dateSupported('2023', [haystack('since 2024, build 20231')])).toBe(false);
  });
});

describe('foundIn', () => {
  it('finds a port written alone, but not inside a longer number or a decimal', () => {
    expect(isIn('port', '5432', 'db-prod-1, port 5432')).toBe(true);
    expect(isIn('port', '5432', 'port 54321')).toBe(false);
    expect(isIn('port', '5432', 'ratio 1.5432')).toBe(false);
  });

  it('finds host:port whole or as its two parts, case-insensitively', () => {
    expect(isIn('host-port', 'db-prod-1:5432', 'Entities: DB-PROD-1:5432')).toBe(true);
    expect(isIn('host-port', 'db-prod-1:5432', 'host db-prod-1 on port 5432')).toBe(true);
    expect(isIn('host-port', 'db-prod-1:5432', 'host db-prod-1 on port 5433')).toBe(false);
  });

  it('does not find a host inside a longer dashed or dotted name', () => {
    expect(isIn('host', 'db-prod-1', 'db-prod-10')).toBe(false);
    expect(isIn('host', 'prod-1', 'db-prod-1')).toBe(false);
    expect(isIn('host', 'example.com', 'api.example.com')).toBe(false);
    expect(isIn('host', 'db-prod-1', 'db-prod-1.')).toBe(true);
  });

  it('finds tickets case-insensitively as whole tokens', () => {
    expect(isIn('ticket', 'FRE-512', 'see fre-512.')).toBe(true);
    expect(isIn('ticket', 'FRE-512', 'see FRE-5120')).toBe(false);
    expect(isIn('order-id', 'LK-4821936', 'order #LK-4821936')).toBe(true);
  });

  it('finds a path as written or by its last segments, never by its bare file name', () => {
    expect(isIn('path', 'config/db.yaml', 'edit /srv/app/config/db.yaml')).toBe(true);
    expect(isIn('path', '/srv/app/config/db.yaml', 'edit config/db.yaml')).toBe(true);
    expect(isIn('path', '/srv/app/config/db.yaml', 'edit db.yaml')).toBe(false);
    expect(isIn('path', 'config/db.yaml', 'edit Config/DB.yaml')).toBe(false);
  });

  it('finds versions with or without the v, but not a longer version', () => {
    expect(isIn('version', 'v2.14.3', 'ledger-svc 2.14.3.')).toBe(true);
    expect(isIn('version', '2.14.3', 'ledger-svc v2.14.3')).toBe(true);
    expect(isIn('version', 'v2.14.3', 'ledger-svc 2.14.30')).toBe(false);
    expect(isIn('version', 'v2.14.3', 'ledger-svc v2.14.3-rc1')).toBe(false);
  });

  it('finds function names with or without parentheses', () => {
    expect(isIn('function', 'reconcile_ledger()', 'calls reconcile_ledger nightly')).toBe(true);
    expect(isIn('function', 'reconcile_ledger()', 'calls reconcile_ledger_v2()')).toBe(false);
    expect(isIn('function', 'ChatContext._summarize()', 'reworks _summarize()')).toBe(true);
  });

  it('matches quantities by value and unit, however the unit is spelled', () => {
    expect(isIn('quantity', '30s', 'times out after 30 seconds')).toBe(true);
    expect(isIn('quantity', '30s', 'times out after 30 sec')).toBe(true);
    expect(isIn('quantity', '30s', 'times out after 30 minutes')).toBe(false);
    expect(isIn('quantity', '30s', 'times out after 300s')).toBe(false);
  });

  it('matches a setting by its name and number, spelled with spaces or underscores', () => {
    expect(isIn('quantity', 'pool_size: 20', 'pool_size is 20')).toBe(true);
    expect(isIn('quantity', 'pool_size: 20', 'raise the pool size from 20')).toBe(true);
    expect(isIn('quantity', 'pool_size: 20', 'pool_size is 200')).toBe(false);
    expect(isIn('quantity', 'pool_size: 20', 'pool_size is low; 20 workers')).toBe(false);
  });

  it('matches numbers across thousands separators and phone numbers across punctuation', () => {
    expect(isIn('number', '4821936', '4,821,936 rows')).toBe(true);
    expect(isIn('number', '4,821,936', '4821936 rows')).toBe(true);
    expect(isIn('number', '4821936', '48219360 rows')).toBe(false);
    expect(isIn('number', '(510) 555-0136', 'call 510-555-0136')).toBe(true);
  });

  it('matches emails and URLs case-insensitively', () => {
    expect(isIn('email', 'maya.chen@example.com', 'mail Maya.Chen@Example.com')).toBe(true);
    expect(isIn('url', 'https://example.invalid/label/', 'at HTTPS://example.invalid/label')).toBe(true);
    expect(isIn('url', 'https://example.invalid/label', 'see https://example.invalid/label/.')).toBe(true);
    expect(isIn('url', 'https://example.invalid/label', 'at https://example.invalid/label/RMA-90721')).toBe(false);
  });

  it('matches dates across formats, and a yearless date against any year', () => {
    expect(isIn('date', '2025-10-07', 'bought on Oct 7 2025')).toBe(true);
    expect(isIn('date', 'October 7', 'until 2026-10-07')).toBe(true);
    expect(isIn('date', '2025-10-07', 'bought on October 7, 2023')).toBe(false);
  });
});

describe('referencedIn, a version', () => {
  // Modelled on thieso2/Sandcastle (the pool's study part, session 59): Ruby 4.0.0's version is a folder of every
  // installed gem's path a backtrace prints; those paths name files, not the release.
  const refers = (value: string, text: string) => referencedIn(id('version', value), haystack(text));
  const gem = '/Users/u/.local/share/mise/installs/ruby/4.0.0/lib/ruby/gems/4.0.0/gems/activejob-8.1.2/lib/active_job/test_helper.rb:53';
  it('counts a version standing alone, not as a segment of a path', () => {
    expect(refers('4.0.0', gem)).toBe(false);
    expect(refers('8.1.2', gem)).toBe(false);
    expect(refers('4.0.0', 'find /Users/u/.local/share/mise/installs/ruby/4.0.0 -name "testing.rb"')).toBe(false);
    expect(refers('4.0.0', 'ruby 4.0.0 (2025-12-25 revision 1f2c3d) +PRISM [arm64-darwin24]')).toBe(true);
    expect(refers('4.0.0', 'upgrade to v4.0.0 first')).toBe(true);
    expect(refers('8.1.2', 'bumped activejob to 8.1.2/8.1.3 in the lockfile')).toBe(true);
  });
  it('while a path still holds the value, so a URL the summarizer read backs the summary version', () => {
    // paulglx/dcr: the summarizer read https://crates.io/api/v1/crates/ratatui-explorer/0.1.4/dependencies.
    expect(isIn('version', '0.1.4', 'https://crates.io/api/v1/crates/ratatui-explorer/0.1.4/dependencies')).toBe(true);
    expect(isIn('version', '4.0.0', gem)).toBe(true);
  });
});

describe('canonicalKey', () => {
  it('gives one key to the same fact written differently', () => {
    expect(canonicalKey(id('ticket', 'LK-4821936'))).toBe(canonicalKey(id('order-id', 'lk-4821936')));
    expect(canonicalKey(id('version', 'v2.14.3'))).toBe(canonicalKey(id('version', '2.14.3')));
    expect(canonicalKey(id('date', 'Oct 7 2025'))).toBe(canonicalKey(id('date', '2025-10-07')));
    expect(canonicalKey(id('number', '4,821,936'))).toBe(canonicalKey(id('number', '4821936')));
    expect(quantityKey('30s')).toBe(quantityKey('30 seconds'));
    expect(quantityKey('1M')).not.toBe(quantityKey('1m'));
  });
});

describe('containsToken', () => {
  it('needs token boundaries on both sides', () => {
    expect(containsToken('a db-prod-1 b', 'db-prod-1')).toBe(true);
    expect(containsToken('a xdb-prod-1 b', 'db-prod-1')).toBe(false);
    expect(containsToken('a db-prod-1_x b', 'db-prod-1')).toBe(false);
  });
});

describe('containsToken and containsNumber by character codes', () => {
  // The first readings, by regular expressions.
  const tokenByRegex = (text: string, needle: string): boolean => {
    if (!needle) return false;
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      const [b, b2, a, a2] = [text[at - 1] ?? '', text[at - 2] ?? '', text[at + needle.length] ?? '', text[at + needle.length + 1] ?? ''];
      const left = !/[A-Za-z0-9]/.test(needle[0]!) || (!/[A-Za-z0-9_]/.test(b) && !(/[-.]/.test(b) && /[A-Za-z0-9]/.test(b2)));
      const right = !/[A-Za-z0-9]/.test(needle[needle.length - 1]!) || (!/[A-Za-z0-9_]/.test(a) && !(/[-.]/.test(a) && /[A-Za-z0-9]/.test(a2)));
      if (left && right) return true;
    }
    return false;
  };
  const numberByRegex = (text: string, digits: string): boolean =>
    new RegExp(`(?<![\\w]|\\d[.,])${digits.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w]|[.,]\\d)`).test(text);

  it('answer as the regular expressions do', () => {
    let seed = 4;
    const r = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const parts = ['5432', '54', '1', 'db', '-', '.', ',', '_', ' ', 'x', '/', 'é', '\u212A', '0'];
    const text = (n: number) => Array.from({ length: n }, () => parts[r(parts.length)]!).join('');
    for (let k = 0; k < 5000; k++) {
      const t = text(r(10));
      const needle = text(1 + r(3));
      expect(containsToken(t, needle), `${t} ${needle}`).toBe(tokenByRegex(t, needle));
      const digits = ['5432', '54', '1', '1.5', '1,5', ''][r(6)]!;
      expect(containsNumber(t, digits), `${t} ${digits}`).toBe(numberByRegex(t, digits));
    }
  });
});

describe('containsPathTail', () => {
  // Modelled on tslater/duet (an Entire checkpoint): a plan's `patterns/data/` (a folder of the project it plans for),
  // then `ls ~/.local/share/lore/patterns/data/`, a data folder under the home folder that ends alike.
  it('reads a longer relative path, or one under the working directory, as holding the relative path as its tail', () => {
    expect(containsPathTail('ls lore/patterns/data/ now', 'patterns/data/', '/home/u/app')).toBe(true);
    expect(containsPathTail('ls /home/u/app/lore/patterns/data/', 'patterns/data/', '/home/u/app')).toBe(true);
  });
  it('does not read a path from the home folder or the root outside the working directory as that tail', () => {
    expect(containsPathTail('ls ~/.local/share/lore/patterns/data/', 'patterns/data/', '/home/u/app')).toBe(false);
    expect(containsPathTail('ls /var/lib/lore/patterns/data/', 'patterns/data/', '/home/u/app')).toBe(false);
    // Without a working directory nothing tells: the tail is read as before.
    expect(containsPathTail('ls /var/lib/lore/patterns/data/', 'patterns/data/')).toBe(true);
  });
});
