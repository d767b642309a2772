// Open files: picker, paste, and the demos.
import { useState } from 'react';
import { openUserSources, openUserUrls } from '../data/open-files';
import { canFollowLocalFiles, pickAndFollowLocalFile } from '../data/live-follow';
import { DEMOS, demoUrls } from '../demos';
import { opensSessions } from '../views/open-intent';
import { FilePicker } from './FilePicker';

export function OpenFileButton() {
  return (
    <FilePicker label="Choose files" accept=".json,.jsonl,.ndjson,.traj,.txt,application/json" button={opensSessions} onFiles={openUserSources}>
      Open files…
    </FilePicker>
  );
}

/** Opens one local file and follows it as it grows, where the browser can re-read a file it handed over. */
export function FollowFileButton() {
  if (!canFollowLocalFiles()) return null;
  return (
    <button type="button" {...opensSessions} onClick={() => void pickAndFollowLocalFile()} title="Opens one session file and shows new calls as the harness appends them (no server needed)">
      Follow a file…
    </button>
  );
}

export function PasteButton() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const submit = () => {
    if (!text.trim()) return;
    openUserSources([{ name: 'pasted.json', text }]);
    setText('');
    setOpen(false);
  };
  return (
    <>
      <button type="button" {...opensSessions} onClick={() => setOpen(true)}>
        Paste…
      </button>
      {open ? (
        <div className="dialog-backdrop" onClick={() => setOpen(false)}>
          <div role="dialog" aria-modal="true" aria-label="Paste a transcript" className="dialog" onClick={(e) => e.stopPropagation()}>
            <h2>Paste a transcript</h2>
            <p className="muted">JSON or JSONL in any supported format. It is parsed in your browser and sent nowhere.</p>
            <textarea aria-label="Transcript text" value={text} onChange={(e) => setText(e.target.value)} rows={14} autoFocus />
            <div className="dialog-actions">
              <button type="button" onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button type="button" className="primary" onClick={submit} disabled={!text.trim()}>
                Open pasted text
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </>
  );
}

export function DemoList() {
  return (
    <ul className="demo-list" aria-label="Demos">
      {DEMOS.map((d) => (
        <li key={d.id}>
          <button type="button" className="demo" {...opensSessions} onClick={() => openUserUrls(demoUrls(d))}>
            <strong>{d.title}</strong>
            <span className="muted">{d.description}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
