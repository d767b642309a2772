import { useApp } from '../store';

export function LoadProgressBar() {
  const p = useApp((s) => s.progress);
  if (!p) return null;
  const pct = p.total > 0 ? Math.round((p.loaded / p.total) * 100) : null;
  const label = p.phase === 'parsing' ? `Parsing ${p.file}` : p.file ? `Reading ${p.file}` : 'Opening…';
  return (
    <div className="progress" role="status" aria-live="polite">
      <span>{label}</span>
      <progress aria-label="Loading" max={100} value={p.phase === 'parsing' ? undefined : (pct ?? undefined)} />
      {pct !== null && p.phase === 'reading' ? <span className="muted">{pct}%</span> : null}
    </div>
  );
}
