import { describe, expect, it } from 'vitest';
import { auditSummary } from './audit-summary';
import type { CallTarget } from '../refetch/call-target';

const read = (file: string): CallTarget => ({ tool: 'Read', target: file, file, writes: false, kind: 'file' });
const edit = (file: string): CallTarget => ({ tool: 'Edit', target: file, file, writes: true, kind: 'file' });
const CWD = '/home/u/app';
const HOME = '/home/u/app/src/app/page.tsx';
const OTHER = '/home/u/app/src/app/projects/page.tsx';

// The slice read one page that defines its own `getStatusColor`; later the agent reads and edits another page that
// defines a function of the same name.
const slice = {
  summary: 'Reviewed the dashboard page.',
  sources: ["   80→  const getStatusColor = (status: string) => {\n   718→  <span className={getStatusColor(project.status)}>"],
  sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(HOME) }],
  project: { cwd: CWD },
};

describe('a function of the same name in another file', () => {
  it('is another function: a later file that defines its own is no use of the lost one', () => {
    const audit = auditSummary({
      ...slice,
      later: [
        { id: 'r', role: 'tool', kind: 'tool_result', target: read(OTHER), text: "   80→  const getStatusColor = (status: string) => {\n  250→  <span className={getStatusColor(p.status)}>" },
        { id: 'e', role: 'assistant', kind: 'tool_call', target: edit(OTHER), text: 'Edit({"old_string":"getStatusColor(p.status)"})' },
      ],
    });
    expect(audit.lost).toContain('getStatusColor()');
    expect(audit.lostReferencedLater).toEqual([]);
    expect(audit.lostRefetchedLater).toEqual([]);
  });

  it('is the same function when the later item is the file the slice read it in', () => {
    const audit = auditSummary({
      ...slice,
      later: [
        { id: 'r', role: 'tool', kind: 'tool_result', target: read(HOME), text: "   80→  const getStatusColor = (status: string) => {" },
        { id: 'e', role: 'assistant', kind: 'tool_call', target: edit(HOME), text: 'Edit({"old_string":"getStatusColor(project.status)"})' },
      ],
    });
    expect(audit.lostRefetchedLater).toMatchObject([{ value: 'getStatusColor()', itemId: 'r', usedIn: 'e' }]);
  });

  it('may be its home when the slice only called it: a later file defining it is where it lives', () => {
    const audit = auditSummary({
      summary: 'Reviewed the dashboard page.',
      sources: ['   718→  <span className={getStatusColor(project.status)}>'],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(HOME) }],
      project: { cwd: CWD, texts: [{ text: 'export function getStatusColor(status: string) {', kind: 'tool_result' }] },
      later: [
        { id: 'r', role: 'tool', kind: 'tool_result', target: read('/home/u/app/src/lib/colors.ts'), text: '  3→export function getStatusColor(status: string) {' },
        { id: 'e', role: 'assistant', kind: 'tool_call', target: edit('/home/u/app/src/lib/colors.ts'), text: 'Edit({"old_string":"export function getStatusColor(status: string) {"})' },
      ],
    });
    expect(audit.lostRefetchedLater).toMatchObject([{ value: 'getStatusColor()', itemId: 'r', usedIn: 'e' }]);
  });
});

// A React setter is the component's own: each `useState` makes a new one, whatever its name. Modelled on judged flags
// of Next.js sessions (s141's setCopied, s145's setError): the agent writes a new page that declares its own.
describe('a name an array destructuring chooses', () => {
  const card = '/home/u/app/src/components/CodeBlock.tsx';
  const evicted = {
    summary: 'Added a copy button to the code block.',
    sources: ['  12→  const [copied, setCopied] = useState(false);\n  20→    setCopied(true);'],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(card) }],
    project: { cwd: CWD },
  };
  const write = (file: string, text: string) => ({ id: 'w', role: 'assistant', kind: 'tool_call', target: { tool: 'Write', target: file, file, writes: true, kind: 'file' } as CallTarget, text });

  it('is another setter in a file that declares its own', () => {
    const audit = auditSummary({ ...evicted, later: [write('/home/u/app/src/app/keys/page.tsx', 'Write({"content":"const [copied, setCopied] = useState(false);\\nconst onCopy = () => setCopied(true);"})')] });
    expect(audit.lost).toContain('setCopied()');
    expect(audit.lostReferencedLater).toEqual([]);
  });

  it('is the same setter when a later call uses it in the file that declared it', () => {
    const audit = auditSummary({ ...evicted, later: [{ id: 'e', role: 'assistant', kind: 'tool_call', target: edit(card), text: 'Edit({"old_string":"setCopied(true);","new_string":"setCopied(true); track();"})' }] });
    expect(audit.lostReferencedLater).toMatchObject([{ value: 'setCopied()', itemId: 'e' }]);
  });

  it('is the same function when an object destructuring names a member defined elsewhere', () => {
    const store = { ...evicted, sources: ['  3→  setToken: (t) => set({ token: t }),\n  9→  setToken(null);'], sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read('/home/u/app/src/store.ts') }] };
    const audit = auditSummary({ ...store, later: [write('/home/u/app/src/app/login/page.tsx', 'Write({"content":"const { setToken } = useStore();\\nsetToken(res.token);"})')] });
    expect(audit.lostReferencedLater).toMatchObject([{ value: 'setToken()', itemId: 'w' }]);
  });
});
