// Small synthetic trajectories of the three research styles, from a seed: the bench's 10k-file corpus and the
// end-to-end test's 200 files. Deterministic, so a run can be compared with the last one.

export interface SyntheticFile {
  name: string;
  text: string;
}

/** mulberry32: a tiny seeded PRNG with a full 2^32 period. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROOMS = ['kitchen', 'hallway', 'bedroom', 'garage', 'lab', 'greenhouse'];
const OBJECTS = ['metal pot', 'thermometer', 'beaker', 'seed packet', 'lighter', 'red wire'];
const ITEMS = ['B09C3N4ZPK', 'B08RYZ1QXD', 'B07WQHF2XK', 'B0A1C2D3E4', 'B0F5G6H7J8'];

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

function selfSum(rnd: () => number, i: number): object {
  const steps = 4 + Math.floor(rnd() * 10);
  const conversations: { from: string; value: string }[] = [{ from: 'human', value: `Task ${i}: boil water in the ${pick(rnd, ROOMS)}.` }];
  let sinceSummary = 0;
  for (let s = 0; s < steps; s++) {
    const obj = pick(rnd, OBJECTS);
    const room = pick(rnd, ROOMS);
    if (sinceSummary >= 3 && rnd() < 0.4) {
      conversations.push({ from: 'gpt', value: '<think>Progress worth recording.</think><action>summary</action>' });
      conversations.push({ from: 'gpt', value: `<summary>I am in the ${room} holding the ${obj}; step ${s}.</summary>` });
      conversations.push({ from: 'human', value: `Task ${i}.\nSummary: in the ${room} with the ${obj}.\nObservation: you are in the ${room}.` });
      sinceSummary = 0;
      continue;
    }
    conversations.push({ from: 'gpt', value: `<think>The ${obj} may be in the ${room}.</think><action>go to ${room}</action>` });
    conversations.push({ from: 'human', value: `You move to the ${room}. You see a ${obj} and a table.` });
    sinceSummary++;
  }
  const success = rnd() < 0.5;
  return { item_id: `selfsum_${i}`, success, reward: success ? 1 : Math.round(rnd() * 50) / 100, conversations };
}

function agentOmit(rnd: () => number, i: number): object {
  const turns = 3 + Math.floor(rnd() * 9);
  const messages: { role: string; content: string }[] = [
    { role: 'system', content: 'You are web shopping. Use <think></think> when no reasoning is needed.' },
    { role: 'user', content: `Instruction ${i}: buy a clip-in hair extension under 40.00 dollars.` },
  ];
  for (let t = 1; t <= turns; t++) {
    const omitThought = t > 1 && rnd() < 0.35;
    const omitObs = t > 2 && rnd() < 0.3;
    const thought = omitThought ? '<think> </think>' : `<think>\nLook at ${pick(rnd, ITEMS)} next.\n</think>`;
    const omit = omitObs ? `<omit_tool_response_${t - 2}></omit_tool_response_${t - 2}>` : '';
    messages.push({ role: 'assistant', content: `${thought}\n${omit}<tool_call>click[${pick(rnd, ITEMS)}]</tool_call>` });
    messages.push({ role: 'environment', content: `<tool_response_${t}>[Back to Search] ${pick(rnd, ITEMS)} $${(10 + rnd() * 40).toFixed(2)}</tool_response_${t}>` });
  }
  const success = rnd() < 0.6;
  return { id: `omit_${i}`, success, reward: success ? 1 : 0, messages };
}

function reasoningTrace(rnd: () => number, i: number): object {
  const iterations = 1 + Math.floor(rnd() * 4);
  const out = [];
  for (let k = 1; k <= iterations; k++) {
    const guess = Math.floor(rnd() * 1000);
    out.push({
      output: `<think>\nAttempt ${k}: 2^${i} mod 1000 by CRT with 8 and 125 gives ${guess}.\n</think>\n\nThe remainder is \\boxed{${guess}}.`,
      answer: String(guess),
      summary: `Attempt ${k} used CRT with moduli 8 and 125 and answered ${guess}.`,
    });
  }
  return { id: `trace_${i}`, question: `Find the remainder when 2^${i} is divided by 1000.`, success: rnd() < 0.4, iterations: out };
}

const STYLES = [selfSum, agentOmit, reasoningTrace] as const;
const PREFIX = ['self-sum', 'agent-omit', 'trace'] as const;

/** `count` small trajectories, one per file, rotating the three styles. */
export function syntheticCorpus(count: number, seed = 1): SyntheticFile[] {
  const rnd = seededRandom(seed);
  const files: SyntheticFile[] = [];
  const width = String(count).length;
  for (let i = 0; i < count; i++) {
    const style = i % STYLES.length;
    files.push({ name: `${PREFIX[style]}-${String(i).padStart(width, '0')}.json`, text: JSON.stringify(STYLES[style]!(rnd, i)) });
  }
  return files;
}

/** The same trajectories one JSON line at a time, never all held: for corpora of any size (the throughput bench). */
export function* syntheticLines(count: number, seed = 1): Generator<string> {
  const rnd = seededRandom(seed);
  for (let i = 0; i < count; i++) yield JSON.stringify(STYLES[i % STYLES.length]!(rnd, i));
}

/** The same trajectories as one JSONL corpus (one trajectory per line). */
export function syntheticJsonl(count: number, seed = 1): string {
  return `${syntheticCorpus(count, seed)
    .map((f) => f.text)
    .join('\n')}\n`;
}
