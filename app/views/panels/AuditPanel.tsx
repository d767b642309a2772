// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function AuditPanel(_props: PanelProps) {
  return <p className="empty">Summary audit: coming soon.</p>;
}
