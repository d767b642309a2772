// Small Parquet datasets shaped like two public trajectory datasets on Hugging Face, written in the test with
// hyparquet-writer (no file of theirs is copied; see src/corpus/__fixtures__/README.md for the dataset cards).
// Column names, types and struct fields follow the cards; the texts are ours.
import { writeParquet, type Field } from './parquet-write';

const REPOS = ['psf/requests', 'pallets/flask', 'pydata/xarray', 'sympy/sympy'];

/**
 * nebius/SWE-agent-trajectories: `instance_id`, `model_name`, `target` (resolved), `trajectory` a list of
 * {cutoff_date, mask, role, system_prompt, text} with roles system / user / ai, `exit_status`, `generated_patch`,
 * `eval_logs`.
 */
export const SWE_AGENT_FIELDS: Field[] = [
  { name: 'instance_id', type: 'string' },
  { name: 'model_name', type: 'string' },
  { name: 'target', type: 'bool' },
  {
    name: 'trajectory',
    list: {
      name: 'element',
      struct: [
        { name: 'cutoff_date', type: 'string' },
        { name: 'mask', type: 'bool' },
        { name: 'role', type: 'string' },
        { name: 'system_prompt', type: 'string' },
        { name: 'text', type: 'string' },
      ],
    },
  },
  { name: 'exit_status', type: 'string' },
  { name: 'generated_patch', type: 'string' },
  { name: 'eval_logs', type: 'string' },
];

const SWE_SYSTEM = 'SETTING: You are an autonomous programmer, working directly in the command line with a special interface.\nCOMMANDS:\nopen <path> [<line_number>]\nedit <start_line>:<end_line>\nsubmit\n';

export function sweAgentRows(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => {
    const repo = REPOS[i % REPOS.length]!;
    const instance = `${repo.replace('/', '__')}-${1000 + i}`;
    const file = `src/module_${i}.py`;
    const steps = 2 + (i % 4);
    const turn = (role: string, text: string, mask: boolean) => ({ cutoff_date: '2024-06-01', mask, role, system_prompt: role === 'system' ? SWE_SYSTEM : null, text });
    const trajectory = [turn('system', SWE_SYSTEM, true), turn('user', `We're currently solving the following issue within our repository. Here's the issue text:\nISSUE:\n${file} raises KeyError on port 80${i % 10}.\n\n(Open file: n/a)\n(Current directory: /${repo.split('/')[1]})\nbash-$`, true)];
    for (let s = 0; s < steps; s++) {
      trajectory.push(turn('ai', `Let's look at line ${10 * (s + 1)} of ${file}.\n\n\`\`\`\nopen ${file} ${10 * (s + 1)}\n\`\`\``, false));
      trajectory.push(turn('user', `[File: /${repo.split('/')[1]}/${file} (120 lines total)]\n${10 * (s + 1)}:    port = config["port"]\n(Open file: ${file})\nbash-$`, true));
    }
    trajectory.push(turn('ai', 'The fix is in place.\n\n```\nsubmit\n```', false));
    return {
      instance_id: instance,
      model_name: i % 2 ? 'swe-agent-llama-70b' : 'swe-agent-qwen-72b',
      target: i % 3 === 0,
      trajectory,
      exit_status: 'submitted',
      generated_patch: `diff --git a/${file} b/${file}\n-    port = config["port"]\n+    port = config.get("port", 80)\n`,
      eval_logs: `Will execute following command for apply_patch: git apply -v /tmp/patch.diff\nAll tests passed: ${i % 3 === 0}`,
    };
  });
}

/**
 * nebius/SWE-rebench-openhands-trajectories (OpenHands 0.54): `trajectory_id`, `instance_id`, `repo`, `trajectory` a
 * list of {content, role, tool_calls [{function {arguments, name}, id, type}], name, tool_call_id} with roles system /
 * user / assistant / tool and the arguments as JSON text, `tools` (function definitions), `model_patch`,
 * `exit_status`, `resolved` (0 or 1).
 */
export const OPENHANDS_FIELDS: Field[] = [
  { name: 'trajectory_id', type: 'string' },
  { name: 'instance_id', type: 'string' },
  { name: 'repo', type: 'string' },
  {
    name: 'trajectory',
    list: {
      name: 'element',
      struct: [
        { name: 'content', type: 'string' },
        { name: 'role', type: 'string' },
        {
          name: 'tool_calls',
          list: {
            name: 'element',
            struct: [
              { name: 'function', struct: [{ name: 'arguments', type: 'string' }, { name: 'name', type: 'string' }] },
              { name: 'id', type: 'string' },
              { name: 'type', type: 'string' },
            ],
          },
        },
        { name: 'name', type: 'string' },
        { name: 'tool_call_id', type: 'string' },
      ],
    },
  },
  {
    name: 'tools',
    list: {
      name: 'element',
      struct: [
        { name: 'function', struct: [{ name: 'description', type: 'string' }, { name: 'name', type: 'string' }, { name: 'parameters', type: 'string' }] },
        { name: 'type', type: 'string' },
      ],
    },
  },
  { name: 'model_patch', type: 'string' },
  { name: 'exit_status', type: 'string' },
  { name: 'resolved', type: 'int64' },
];

const OH_SYSTEM = 'You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.';
const TOOLS = [
  { type: 'function', function: { name: 'execute_bash', description: 'Execute a bash command in the terminal within a persistent shell session.', parameters: '{"type":"object","properties":{"command":{"type":"string"}}}' } },
  { type: 'function', function: { name: 'str_replace_editor', description: 'Custom editing tool for viewing, creating and editing files.', parameters: '{"type":"object","properties":{"command":{"type":"string"},"path":{"type":"string"}}}' } },
];

export function openHandsRows(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => {
    const repo = REPOS[(i + 1) % REPOS.length]!;
    const instance = `${repo.replace('/', '__')}-${2000 + i}`;
    const trajectory: Record<string, unknown>[] = [
      { role: 'system', content: OH_SYSTEM },
      { role: 'user', content: `<uploaded_files>\n/workspace/${repo.split('/')[1]}\n</uploaded_files>\nFix: the retry loop in client_${i}.py never stops after 3 attempts.` },
    ];
    const steps = 2 + (i % 3);
    for (let s = 0; s < steps; s++) {
      const id = `call_${i}_${s}`;
      const view = s % 2 === 0;
      trajectory.push({
        role: 'assistant',
        content: view ? `Let me look at client_${i}.py first.` : 'Now run the tests.',
        tool_calls: [{ id, type: 'function', function: view ? { name: 'str_replace_editor', arguments: JSON.stringify({ command: 'view', path: `/workspace/client_${i}.py` }) } : { name: 'execute_bash', arguments: JSON.stringify({ command: 'python -m pytest -q tests/test_retry.py' }) } }],
      });
      trajectory.push({ role: 'tool', name: view ? 'str_replace_editor' : 'execute_bash', tool_call_id: id, content: view ? `Here's the result of running \`cat -n\` on /workspace/client_${i}.py:\n     1\tMAX_RETRIES = 3\n     2\tfor attempt in range(MAX_RETRIES + 1):` : `3 passed in 0.${s}2s` });
    }
    trajectory.push({ role: 'assistant', content: 'The retry loop now stops after 3 attempts.', tool_calls: [{ id: `call_${i}_finish`, type: 'function', function: { name: 'finish', arguments: '{}' } }] });
    return {
      trajectory_id: `chatcmpl-${(0x5f3a + i * 7919).toString(16)}`,
      instance_id: instance,
      repo,
      trajectory,
      tools: TOOLS,
      model_patch: `diff --git a/client_${i}.py b/client_${i}.py\n-for attempt in range(MAX_RETRIES + 1):\n+for attempt in range(MAX_RETRIES):\n`,
      exit_status: 'submit',
      resolved: BigInt(i % 2),
    };
  });
}

export function sweAgentParquet(n: number, rowGroupSize = 2): Uint8Array {
  return writeParquet(SWE_AGENT_FIELDS, sweAgentRows(n), rowGroupSize);
}

export function openHandsParquet(n: number, rowGroupSize = 2): Uint8Array {
  return writeParquet(OPENHANDS_FIELDS, openHandsRows(n), rowGroupSize);
}
