// Demo sessions served from public/demos, opened with one click.
export interface Demo {
  id: string;
  title: string;
  description: string;
  files: string[];
}

export const DEMOS: readonly Demo[] = [
  {
    id: 'coding-agent',
    title: 'Coding agent with a compaction log and a request log',
    description: 'The course example: a summary keeps db-prod-1:5432 and FRE-512, a later fallback loses facts.',
    files: ['coding-agent.transcript.json', 'coding-agent.compaction-log.jsonl', 'coding-agent.requests.jsonl'],
  },
  {
    id: 'acme-audio',
    title: 'Acme Audio support (LiveKit): plain vs action-aware summary',
    description: 'The LiveKit pull request session, summarized twice: the old summary invents a year, the new one reads tool output.',
    files: ['acme-audio-plain-summary.livekit.json', 'acme-audio-action-aware.livekit.json'],
  },
  {
    id: 'deepsearch-agent-omit',
    title: 'DeepSearch trajectory with thought and observation omission (Agent-Omit)',
    description: 'Empty thoughts, an omit command and omitted tool responses.',
    files: ['deepsearch-agent-omit.json'],
  },
  {
    id: 'alfworld-self-sum',
    title: 'ALFWorld trajectory that summarizes itself (Self-Sum)',
    description: 'Segments, summary timing turns and the query+summary that starts each segment.',
    files: ['alfworld-self-sum.json'],
  },
  {
    id: 'aime-iterated-summarization',
    title: 'Math reasoning trace with iterated summarization (backtracking summaries)',
    description: 'Four attempts at an AIME-style problem: each summary says where the reasoning changed course, and the next prompt carries them all.',
    files: ['aime-iterated-summarization.json'],
  },
];

export function demoUrls(demo: Demo): string[] {
  return demo.files.map((f) => `${import.meta.env.BASE_URL}demos/${f}`);
}
