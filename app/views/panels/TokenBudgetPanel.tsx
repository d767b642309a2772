// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function TokenBudgetPanel(_props: PanelProps) {
  return <p className="empty">Token budget: coming soon.</p>;
}
