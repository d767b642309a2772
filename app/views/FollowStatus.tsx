// The status line of a session followed live: what is followed, when it last changed, and the tail switch.
import { Untrusted } from '../components/Untrusted';
import { useApp } from '../store';

const time = (ms: number) => new Date(ms).toLocaleTimeString('en-GB', { hour12: false });

export function FollowStatus({ sessionKey }: { sessionKey: string }) {
  const f = useApp((s) => s.follows[sessionKey]);
  const setTail = useApp((s) => s.setFollowTail);
  if (!f) return null;
  return (
    <div className="follow-status">
      <span role="status" aria-label="Live follow">
        <span className="follow-dot" aria-hidden="true" /> following <Untrusted text={f.path} /> · {f.updated === null ? 'no change yet' : `last update ${time(f.updated)}`}
        {f.error ? <span className="warn-text"> · last re-read failed: {f.error}</span> : null}
      </span>
      <label>
        <input type="checkbox" checked={f.tail} onChange={(e) => setTail(sessionKey, e.target.checked)} /> Follow the tail
      </label>
    </div>
  );
}
