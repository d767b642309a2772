// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function EvictionMapPanel(_props: PanelProps) {
  return <p className="empty">Eviction map: coming soon.</p>;
}
