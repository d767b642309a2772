// (c) An Agent-Omit deep-search trajectory of `turns` turns after the system prompt and the question
// (assistant and environment alternating; see src/formats/agent-omit.ts and public/demos/deepsearch-agent-omit.json).
//
// Assistant turns reason inside <think>…</think> or leave it empty (`<think> </think>`, an omitted thought),
// and every few turns drop earlier search results with an omit command naming 1–3 responses still in context
// (`<omit_tool_response_4_7></omit_tool_response_4_7>`), before their <tool_call>. Environment turns answer
// `<tool_response_N>Doc 1 (Title: …) …</tool_response_N>`; now and then the logged observation is the
// placeholder `<omitted_tool_response_N></omitted_tool_response_N>` (original not kept). The last assistant
// turn gives the <answer>.
import { random } from './random';
import { prose, searchDocs, sentence, word } from './text';

export interface AgentOmitSpec {
  seed: number;
  /** Turns after the system prompt and the question. */
  turns: number;
}

export const AGENT_OMIT_BENCH: AgentOmitSpec = { seed: 3, turns: 20_000 };

export interface AgentOmitStats {
  /** Omit commands written by the agent: each is one `omission` compaction. */
  omitCommands: number;
  omittedThoughts: number;
  placeholders: number;
}

export function agentOmitTrajectory(spec: AgentOmitSpec): { text: string; stats: AgentOmitStats } {
  const r = random(spec.seed);
  const stats: AgentOmitStats = { omitCommands: 0, omittedThoughts: 0, placeholders: 0 };
  const messages: { role: string; content: string }[] = [
    {
      role: 'system',
      content:
        'Answer the question by searching. When you lack knowledge, write a search query as <tool_call>query</tool_call> and stop; the search results come back as <tool_response_N>…</tool_response_N>. Reason inside <think>…</think>, or write an empty <think></think> when the next call needs no reasoning. To save context you may drop earlier search results by writing <omit_tool_response_N_…></omit_tool_response_N_…> before your next <tool_call>. When you are confident, give the final answer as <answer>…</answer>.',
    },
    { role: 'user', content: `Question: ${sentence(r).replace(/\.$/, '?')}` },
  ];
  // Response numbers still in context (not omitted), oldest first.
  const present: number[] = [];
  let response = 0;
  for (let t = 0; t < spec.turns; t++) {
    if (t % 2 === 1) {
      response++;
      if (r.chance(0.02)) {
        stats.placeholders++;
        messages.push({ role: 'environment', content: `<omitted_tool_response_${response}></omitted_tool_response_${response}>` });
      } else {
        present.push(response);
        messages.push({ role: 'environment', content: `<tool_response_${response}>${searchDocs(r, r.int(2, 4), r.int(120, 360))}</tool_response_${response}>` });
      }
      continue;
    }
    const last = t >= spec.turns - 2;
    const empty = !last && r.chance(0.4);
    if (empty) stats.omittedThoughts++;
    const think = empty ? '<think> </think>' : `<think>\n${prose(r, r.int(60, 500))}\n</think>`;
    if (last) {
      messages.push({ role: 'assistant', content: `${think}\n<answer>${word(r)} ${word(r)}</answer>` });
      continue;
    }
    let omit = '';
    if (present.length > 4 && r.chance(0.25)) {
      // Drop 1–3 of the older results still in context.
      const n = r.int(1, 3);
      const dropped = present.splice(0, n);
      const tag = `omit_tool_response_${dropped.join('_')}`;
      omit = `<${tag}></${tag}>`;
      stats.omitCommands++;
    }
    messages.push({ role: 'assistant', content: `${think}\n${omit}<tool_call>${word(r)} ${word(r)} ${word(r)} ${r.int(1900, 2025)}</tool_call>` });
  }
  const doc = { id: `deepsearch-bench-${spec.seed}`, task: 'deepsearch', data_source: 'synthetic', golden_answers: ['synthetic'], success: true, reward: 1, messages };
  return { text: JSON.stringify(doc, null, 1), stats };
}
