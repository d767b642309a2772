// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function LintsPanel(_props: PanelProps) {
  return <p className="empty">Lints: coming soon.</p>;
}
