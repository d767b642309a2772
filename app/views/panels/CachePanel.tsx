// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function CachePanel(_props: PanelProps) {
  return <p className="empty">Cache prefix: coming soon.</p>;
}
