import { execFileSync } from 'node:child_process';
import { loadText } from '../src/load/loader';
import { languageOf } from '../src/audit/language';
const [repo, ref, path] = process.argv.slice(2);
const text = execFileSync('git', ['-C', `/work/.mirror/${repo!.replace('/', '+')}/repo`, 'show', `${ref}:${path}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
const s = loadText('x.jsonl', text).sessions[0]!;
const firstC = s.compactions.find((c) => c.summaryId)!;
const at = s.items.findIndex((i) => i.id === firstC.atItemId);
for (const it of s.items.slice(0, at)) if (it.role === 'user' && it.kind === 'message') console.log(languageOf(it.text), JSON.stringify(it.text.slice(0, 90)));
for (const it of s.items.slice(0, at)) if (it.role === 'user' && it.kind === 'message' && /Agent Updater|Caveat|command-message/.test(it.text.slice(0, 40))) { console.log(JSON.stringify(it.meta), it.text.slice(0, 60).replace(/\n/g, ' ')); }
