import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { loadText } from '../../src/load/loader';
import { SessionHeader } from '../views/SessionHeader';
import { ItemRow } from './ItemRow';

const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

// An OpenAI chat file whose title, model, tool name and texts carry a right-to-left override and a NUL.
const EVIL = 'evil\u202Egnp.exe\u0000';
const file = JSON.stringify({
  model: `gpt-4o${EVIL}`,
  messages: [
    { role: 'user', content: `look at ${EVIL}` },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: `read${EVIL}`, arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'ok' },
  ],
});

describe('names from a file in the views', () => {
  const session = loadText(`run${EVIL}.json`, file).sessions[0]!;

  it('isolates the title, model and file names and shows their control characters as marks', () => {
    const html = renderToStaticMarkup(<SessionHeader sessionKey="untrusted-test" session={session} />);
    expect(html).not.toMatch(RAW_CONTROL);
    expect(html).toContain('<bdi>gpt-4oevil⟨RLO⟩gnp.exe␀</bdi>');
    expect(html).toContain('<bdi>run');
  });

  it('isolates an item name and shows the controls in its text', () => {
    const call = session.items.find((i) => i.kind === 'tool_call')!;
    const user = session.items.find((i) => i.role === 'user')!;
    const html = renderToStaticMarkup(
      <>
        <ItemRow item={call} index={0} expanded={false} onToggle={() => {}} onJump={() => {}} />
        <ItemRow item={user} index={1} expanded={false} onToggle={() => {}} onJump={() => {}} />
      </>,
    );
    expect(html).not.toMatch(RAW_CONTROL);
    expect(html).toContain('<bdi class="item-name">readevil⟨RLO⟩gnp.exe␀</bdi>');
    expect(html).toContain('look at evil⟨RLO⟩gnp.exe␀');
  });
});
