import { describe, expect, it } from 'vitest';
import { dateMatches, extractIdentifiers, mayMatchAcross, quantityMatches } from './identifiers';

const found = (text: string) => extractIdentifiers(text).map((i) => [i.kind, i.value]);

describe('extractIdentifiers', () => {
  it('finds the course example identifiers in a config dump and in prose', () => {
    expect(found('host: db-prod-1\nport: 5432\nticket: FRE-512\npool_size: 20\nstatement_timeout: 30s')).toEqual([
      ['host', 'db-prod-1'],
      ['port', '5432'],
      ['ticket', 'FRE-512'],
      ['quantity', 'pool_size: 20'],
      ['quantity', '30s'],
    ]);
    expect(found('The job calls `reconcile_ledger()` from ledger-svc v2.14.3 (see config/db.yaml).')).toEqual([
      ['function', 'reconcile_ledger()'],
      ['version', 'v2.14.3'],
      ['path', 'config/db.yaml'],
    ]);
  });

  it('reads no address in a URL a placeholder cuts (a template), and reads the whole one beside it', () => {
    // Judged flags s141 (`https://${companyName}.com` read as `https://$`) and s82 (`https://p.aicu.jp/q/${sid}/results`).
    const urls = (text: string) => extractIdentifiers(text).filter((i) => i.kind === 'url').map((i) => i.value);
    expect(urls('const site = `https://${companyName.toLowerCase()}.com`;')).toEqual([]);
    expect(urls('速報: https://p.aicu.jp/q/${sid}/results and GET https://api.x.dev/users/{id}')).toEqual([]);
    expect(urls('See https://p.aicu.jp/q/WS260313 for the survey.')).toEqual(['https://p.aicu.jp/q/WS260313']);
  });

  it('yields host:port whole and as its host and port, at their offsets', () => {
    const ids = extractIdentifiers('connect to db-prod-1:5432 now');
    expect(ids).toEqual([
      { value: 'db-prod-1:5432', kind: 'host-port', index: 11 },
      { value: 'db-prod-1', kind: 'host', index: 11 },
      { value: '5432', kind: 'port', index: 21 },
    ]);
  });

  it('reads host:port for IPs and localhost but not file:line or clock times', () => {
    expect(found('127.0.0.1:8080 and localhost:3000')).toEqual([
      ['host-port', '127.0.0.1:8080'],
      ['host', '127.0.0.1'],
      ['port', '8080'],
      ['host-port', 'localhost:3000'],
      ['host', 'localhost'],
      ['port', '3000'],
    ]);
    expect(found('error at src/foo.ts:42 around 12:30')).toEqual([['path', 'src/foo.ts']]);
  });

  // Modelled on yutakobayashidev/dotnix (session 51, half A): a Nix attribute path, not a host after a label.
  it('reads a host after its label only where the label is a word: `mcp-servers-nix` holds none', () => {
    const of = (t: string) => extractIdentifiers(t).filter((i) => i.kind === 'host').map((i) => i.value);
    expect(of('Use inputs.mcp-servers-nix.lib.evalModule to build.')).toEqual([]);
    expect(of('server: db-prod-1 and the host is api-2.local')).toEqual(['db-prod-1', 'api-2.local']);
  });
  it('reads a capitalised extension after a lower-case name as a member (`repo.Log`), not a file', () => {
    const paths = (t: string) => extractIdentifiers(t).filter((i) => i.kind === 'path').map((i) => i.value);
    expect(paths('walk the history with repo.Log and resp.Json')).toEqual([]);
    expect(paths('tail app.log, open NOTES.MD and Report.Log')).toEqual(['app.log', 'NOTES.MD', 'Report.Log']);
  });
  it('tells order ids from tickets by a # sign, an order word, an RMA prefix or a long number', () => {
    expect(found('Order #LK-4821936, RMA #RMA-90721, serial ACB-PRO-7F29D4, see PAY-88')).toEqual([
      ['order-id', 'LK-4821936'],
      ['order-id', 'RMA-90721'],
      ['order-id', 'ACB-PRO-7F29D4'],
      ['ticket', 'PAY-88'],
    ]);
  });

  it('reads dates in ISO and month-name forms, with and without a year, and bare years', () => {
    expect(found('on October 7, on Oct 7 2025, on 7 October 2025, on 2025-10-07T08:00:00Z, since 2023.')).toEqual([
      ['date', 'October 7'],
      ['date', 'Oct 7 2025'],
      ['date', '7 October 2025'],
      ['date', '2025-10-07T08:00:00Z'],
      ['date', '2023'],
    ]);
  });

  it('reads no date glued to a file extension: it is part of a file name (modelled on LAF-US/IDAHO-VAULT)', () => {
    // `MiniData File for April 01 2026.msg` is a file the session lists; the date in its name is no date of the work.
    expect(found('- `MiniData File for April 01 2026.msg` - Dated source file; notes in 2025.md; report 2026-04-03.md')).toEqual([['path', '2026-04-03.md']]);
    // A sentence's full stop is no extension.
    expect(found('Shipped on April 1 2026. Moved in 2025. Then 2026-04-03.')).toEqual([
      ['date', 'April 1 2026'],
      ['date', '2025'],
      ['date', '2026-04-03'],
    ]);
  });

  it('finds URLs, emails, UUIDs, hashes, phone numbers and long numbers', () => {
    expect(
      found(
        'See [label](https://example.invalid/label/RMA-90721), mail maya.chen@example.com, run 123e4567-e89b-12d3-a456-426614174000 at commit 3f9a2b1c, call (510) 555-0136, 4,821,936 rows',
      ),
    ).toEqual([
      ['url', 'https://example.invalid/label/RMA-90721'],
      ['email', 'maya.chen@example.com'],
      ['uuid', '123e4567-e89b-12d3-a456-426614174000'],
      ['hash', '3f9a2b1c'],
      ['number', '(510) 555-0136'],
      ['number', '4,821,936'],
    ]);
  });

  it('finds numbers with units, money and settings, normalizing nothing in the value', () => {
    expect(found('took 12 minutes, then 1.5s; 512 tokens, 85%, $1,200, max_tokens=512, 32k context')).toEqual([
      ['quantity', '12 minutes'],
      ['quantity', '1.5s'],
      ['quantity', '512 tokens'],
      ['quantity', '85%'],
      ['quantity', '$1,200'],
      ['quantity', 'max_tokens=512'],
      ['quantity', '32k'],
    ]);
  });

  it('finds function names shaped like code and leaves plain words with parentheses alone', () => {
    expect(found('lookup_order({"a":1}) then ChatContext._summarize() and getUser(id); the file(s) were fine (mostly)')).toEqual([
      ['function', 'lookup_order()'],
      ['function', 'ChatContext._summarize()'],
      ['function', 'getUser()'],
    ]);
  });

  it('keeps a module on Module.func calls, keeps only the method on variable receivers, and skips library calls', () => {
    expect(found('Tmux.capture_pane(id); this.handleEvent("x"); els.forEach(f); document.getElementById("a"); Enum.sort_by(xs, f)')).toEqual([
      ['function', 'Tmux.capture_pane()'],
      ['function', 'handleEvent()'],
    ]);
    expect(extractIdentifiers('self._summarize(ctx)')).toEqual([{ value: '_summarize()', kind: 'function', index: 5 }]);
  });

  it('reads a bare year only where the words around it make it a year', () => {
    expect(found('Released in 2023, stable since 2019 (2021), planned for October 2025')).toEqual([
      ['date', '2023'],
      ['date', '2019'],
      ['date', '2021'],
      ['date', '2025'],
    ]);
    expect(found('setTimeout(fn, 2000); limit 1999 rows; 2023 rows')).toEqual([]);
  });

  it('reads a path that holds a UUID as one path', () => {
    expect(found('read the full transcript at: /home/u/.claude/projects/-home-u-app/4d5611e5-241a-462a-8d15-5122611a9569.jsonl')).toEqual([
      ['path', '/home/u/.claude/projects/-home-u-app/4d5611e5-241a-462a-8d15-5122611a9569.jsonl'],
    ]);
  });

  it('ignores small integers, schema headers, markdown, standards and words with slashes', () => {
    expect(
      found(
        '## Conversation Summary\n- **Decisions:** keep 3 files\n- **Entities:** none\n- **Facts:** 12 tests pass\n- **Open Items:** and/or TCP/IP via UTF-8, SHA-256 and GPT-4 on Node.js </think> 10 of 20, Apt 4B, iPhone 14 Pro',
      ),
    ).toEqual([]);
  });

  it('does not read slash-separated lists, Elixir modules or zero timings as paths, hosts or quantities', () => {
    expect(found('handles .ex/.exs and .json/.jsonl via Read/Glob/Grep; calls AshComputer.Info and DateTime.diff; 0m 0.00s')).toEqual([]);
    expect(found('took 0.9 seconds')).toEqual([['quantity', '0.9 seconds']]);
    expect(found('flags --title/--description/--notes, lists issues/tasks/epics and open/closed/blocked')).toEqual([]);
    expect(found('see src/components/ui and docs/guides/setup')).toEqual([
      ['path', 'src/components/ui'],
      ['path', 'docs/guides/setup'],
    ]);
  });

  it("finds nothing in a redacting exporter's placeholder", () => {
    expect(found('[REDACTED_TEXT len=3017 sha=f3ffd0ed] then commit 3f9a2b1c')).toEqual([['hash', '3f9a2b1c']]);
  });

  it('keeps a path inside a URL as part of the URL only', () => {
    expect(found('fetch https://api.example.com/v1/users/config.json')).toEqual([
      ['url', 'https://api.example.com/v1/users/config.json'],
    ]);
  });

  it('leaves markdown emphasis that closes right after a URL out of it, and keeps a glob star', () => {
    // Modelled on aicuai/p-aicujp (an Entire checkpoint): a call-for-participation doc in markdown.
    expect(found('**▶ 調査に参加する: https://p.example.jp/q/R2602**')).toEqual([['url', 'https://p.example.jp/q/R2602']]);
    expect(found('read **https://example.com/docs**.')).toEqual([['url', 'https://example.com/docs']]);
    expect(found('allow https://example.com/* here')).toEqual([['url', 'https://example.com/*']]);
  });
});

describe('extractIdentifiers, a setting', () => {
  // Modelled on a summary of entireio/cli (half A of bench/flag-judgements.json, s31): "the auto_commit 7-char BaseCommit
  // vs manual_commit 40-char BaseCommit".
  it('is not a name and the number that begins a hyphenated word after it (`auto_commit 7-char`): that is the word’s measure', () => {
    expect(found('the auto_commit 7-char BaseCommit vs manual_commit 40-char BaseCommit').filter(([kind]) => kind === 'quantity')).toEqual([]);
  });
  it('still takes a name and its number, also before a range or a plain word', () => {
    expect(found('pool_size 20-30 and max_tokens 512 tokens').filter(([kind]) => kind === 'quantity')).toEqual([
      ['quantity', 'pool_size 20'],
      ['quantity', 'max_tokens 512'],
    ]);
  });
});

describe('extractIdentifiers, a file name', () => {
  // Modelled on entireio/cli's Go (half A of bench/flag-judgements.json, s33): `fmt.Sprintf("agent-%s.jsonl", agentID)`.
  it('in a template (after a format verb or a template slot) is no file: its tail is not extracted', () => {
    const paths = (t: string) => found(t).filter(([kind]) => kind === 'path');
    expect(paths('filepath.Join(dir, fmt.Sprintf("agent-%s.jsonl", agentID))')).toEqual([]);
    expect(paths('const name = `${id}-log.txt`')).toEqual([]);
  });
  it('standing alone, or after a plain word and a dash, is still a file', () => {
    expect(found('open agent-main.jsonl and s.jsonl').filter(([kind]) => kind === 'path')).toEqual([
      ['path', 'agent-main.jsonl'],
      ['path', 's.jsonl'],
    ]);
  });
});

describe('extractIdentifiers, a path running into a glob', () => {
  // Modelled on an Xcode project's clean-up (Viniciuscarvalho/FitToday, half A of bench/flag-judgements.json, s27) and
  // on a server's nginx folder grepped with a glob (Safecast/safecast-map-MCP, labelled row h3sc2-032).
  const paths = (t: string) => found(t).filter(([kind]) => kind === 'path').map(([, v]) => v);
  it('cut inside a name is the head of a search pattern, no path', () => {
    expect(paths('rm -rf /Users/v/Library/Developer/Xcode/DerivedData/FitToday-* 2>/dev/null')).toEqual(['/dev/null']);
  });
  it('a whole folder before the glob is that folder', () => {
    expect(paths('grep -A10 assistant /etc/nginx/sites-enabled/* 2>/dev/null')).toEqual(['/etc/nginx/sites-enabled/', '/dev/null']);
  });
  it('a path that ends before a space is still a path', () => {
    expect(paths('rm -rf /Users/v/Library/Developer/Xcode/DerivedData/FitToday-abc')).toEqual(['/Users/v/Library/Developer/Xcode/DerivedData/FitToday-abc']);
  });
  // A template's slot cuts a name as a glob does (sam-fakhreddine/wfc, half A of bench/flag-judgements.json, s67).
  it('cut inside a name by a template slot is the head of a pattern, no path', () => {
    expect(paths('Each skill lives in docs/skills/wfc-{name}.md; logs go to logs/run-${id}.txt')).toEqual([]);
  });
  it('a whole folder before a template slot is that folder', () => {
    expect(paths('files under docs/skills/{name}.md')).toEqual(['docs/skills/']);
  });
});

describe('extractIdentifiers on pathological text', () => {
  it('finds nothing it should not in long runs of spaces, path characters, labels and digits', () => {
    // Each of these took seconds to minutes when a pattern rescanned the run at every position; their time, linear
    // in the run's length, is a bench row (bench/linear-inputs.ts).
    const inputs = [
      ' '.repeat(100_000) + 'in 2023',
      'a@'.repeat(50_000),
      'port' + ' '.repeat(50_000) + 'x',
      'host' + ' '.repeat(50_000) + 'x',
      'ab/'.repeat(40_000),
      '1'.repeat(100_000),
    ];
    // The year after the spaces is the one identifier among them.
    expect(inputs.map((text) => found(text))).toEqual([[['date', '2023']], [], [], [], [], []]);
  });
});

describe('quantityMatches', () => {
  it('lists the quantities the quantity passes match, also where an earlier pass claimed the characters', () => {
    // `30s` inside the URL is no identifier, but the quantity pass still matches it.
    expect(quantityMatches('pool_size: 20, wait 30s at https://x.io/a?t=30s&n=5 MB')).toEqual(['pool_size: 20', '30s', '30s', '5 MB']);
    expect(extractIdentifiers('pool_size: 20, wait 30s at https://x.io/a?t=30s&n=5 MB').filter((i) => i.kind === 'quantity').map((i) => i.value)).toEqual(['pool_size: 20', '30s']);
  });
});

describe('mayMatchAcross', () => {
  const kv = (texts: string[]) => texts.flatMap((t) => extractIdentifiers(t)).map((i) => `${i.kind} ${i.value}`).sort();

  it('flags a named date, a labelled version or a year context that a blank line may join', () => {
    expect(mayMatchAcross(['due Oct', '7 items'])).toBe(true);
    expect(mayMatchAcross(['due Oct 7,', '  ', '2025 plan'])).toBe(true);
    expect(mayMatchAcross(['on the 7th', 'October was busy'])).toBe(true);
    expect(mayMatchAcross(['upgrade node', 'v20.1 now'])).toBe(true);
    expect(mayMatchAcross(['shipped in', '2023 again'])).toBe(true);
    expect(mayMatchAcross(['exit code 1', '     1→import x'])).toBe(false);
    expect(mayMatchAcross(['see Oct 7', 'and more'])).toBe(false);
    expect(kv(['due Oct', '7 items'])).not.toEqual(kv(['due Oct\n\n7 items']));
  });

  it('when it says no, the joined text holds exactly the identifiers of the texts one by one', () => {
    let seed = 3;
    const r = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const words = ['Oct', 'October', 'Sept.', '7', '7th', '12,', '2025', 'in', 'since', 'node', 'version', 'v1.2', '3.4', '30s', '5 MB', 'FY', '(', '©', 'x', 'the', ' ', '\n', '  ', ''];
    const text = () => Array.from({ length: r(5) }, () => words[r(words.length)]!).join(r(2) ? ' ' : '');
    let same = 0;
    let flagged = 0;
    for (let k = 0; k < 3000; k++) {
      const texts = Array.from({ length: 2 + r(3) }, text);
      if (mayMatchAcross(texts)) {
        flagged++;
        continue;
      }
      same++;
      expect(kv([texts.join('\n\n')]), JSON.stringify(texts)).toEqual(kv(texts));
    }
    expect(same).toBeGreaterThan(300);
    expect(flagged).toBeGreaterThan(300);
  });
});

describe('dateMatches', () => {
  it('lists the dates the date passes match, also where an earlier pass claimed the characters', () => {
    const text = 'shipped 2025-10-07 in 2024, see https://x.io/a?d=2023-01-02 and Oct 7';
    expect(dateMatches(text)).toEqual(['2025-10-07', '2023-01-02', 'Oct 7', '2024']);
    expect(extractIdentifiers(text).filter((i) => i.kind === 'date').map((i) => i.value)).toEqual(['2025-10-07', '2024', 'Oct 7']);
  });
});

describe('quantityMatches and dateMatches', () => {
  it('hold every quantity and every date extractIdentifiers finds, on made-up texts', () => {
    let seed = 8;
    const r = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const parts = ['30s', '5 MB', '$1,024', 'pool_size: 20', '2025-10-07', 'Oct 7', '7th October', 'in 2023', 'https://x.io/?t=', 'a/b/', 'v1.2', '-', ' ', '\n', 'x', '12,345', '(', '2024'];
    for (let k = 0; k < 3000; k++) {
      const text = Array.from({ length: 1 + r(8) }, () => parts[r(parts.length)]!).join(r(2) ? ' ' : '');
      const ids = extractIdentifiers(text);
      const quantities = quantityMatches(text);
      const dates = dateMatches(text);
      for (const q of ids.filter((i) => i.kind === 'quantity')) expect(quantities, text).toContain(q.value);
      for (const d of ids.filter((i) => i.kind === 'date')) expect(dates, text).toContain(d.value);
    }
  });
});
