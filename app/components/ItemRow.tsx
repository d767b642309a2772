// One item of a session: role, kind, tool pairing and text. Text is untrusted and rendered as plain text.
import type { MouseEvent, ReactNode } from 'react';
import type { Item } from '../../src/model/types';
import { count } from '../format/count';
import { plain, Untrusted } from './Untrusted';
import { showControls } from '../../src/model/visible-text';
import { isHarnessItem, teammateWordsOf } from '../../src/model/harness-messages';

const PREVIEW_CHARS = 600;

export const KIND_LABEL: Record<Item['kind'], string> = {
  message: 'message',
  thinking: 'thinking',
  tool_call: 'tool call',
  tool_result: 'tool result',
  summary: 'summary',
  omission: 'omission marker',
  handoff: 'handoff',
  compaction: 'compaction event',
};

const OMISSION_LABEL: Record<NonNullable<Item['omission']>['target'], string> = {
  thought: 'thought omitted',
  observation: 'observation omitted',
  tool_result: 'tool result cleared',
  turns: 'stands for dropped turns',
};

interface Props {
  item: Item;
  index: number;
  expanded: boolean;
  onToggle(): void;
  onJump(id: string): void;
  /** Token count of the item as sent, when known. */
  tokens?: number;
  /** Extra badges (new in this call, masked, …). */
  badges?: ReactNode;
  /** Replaces the plain text body (summary cards). */
  body?: ReactNode;
  /** Characters shown before "Show all". */
  previewChars?: number;
  /** The item is the selection (annotations, the diff and the eviction map follow it). */
  selected?: boolean;
  /** A click on the item (not on its buttons, nor one that selects text) selects it. */
  onSelect?(id: string): void;
}

/** A click that means "this item": not on a control inside it, and not the end of a text selection. */
function selectsItem(e: MouseEvent<HTMLElement>): boolean {
  if (e.button !== 0 || e.defaultPrevented) return false;
  const t = e.target as HTMLElement;
  if (t.closest('button, a, input, select, textarea, summary, [role="button"]')) return false;
  const sel = window.getSelection();
  return !sel || sel.isCollapsed;
}

export function ItemRow({ item, index, expanded, onToggle, onJump, tokens, badges, body, previewChars = PREVIEW_CHARS, selected, onSelect }: Props) {
  const long = item.text.length > previewChars;
  const text = expanded || !long ? item.text : `${item.text.slice(0, previewChars)}…`;
  // Who of an agent team wrote this user-role record (its lead, a teammate), when another agent did.
  const teammates = [...new Set(teammateWordsOf(item).map((m) => m.from))];
  return (
    <article
      className={`item kind-${item.kind} role-${item.role}${onSelect ? ' selectable' : ''}`}
      aria-label={`${item.role} ${KIND_LABEL[item.kind]} ${plain(item.id)}`}
      aria-current={selected ? 'true' : undefined}
      data-item-id={item.id}
      onClick={onSelect ? (e) => selectsItem(e) && onSelect(item.id) : undefined}
    >
      <div className="item-head">
        <span className="item-index">{index + 1}</span>
        <span className={`badge role role-${item.role}`}>{item.role}</span>
        {isHarnessItem(item) ? (
          <span className="badge muted-badge" title="The harness wrote this into the user's turn (a reminder, a hook's output, an attached file); no person did">
            harness
          </span>
        ) : null}
        {teammates.length > 0 ? (
          <span className="badge muted-badge" title="Another agent of the team sent this (Claude Code agent teams); no person wrote it">
            from <Untrusted text={teammates.join(', ')} />
          </span>
        ) : null}
        <span className={`badge kind kind-${item.kind}`}>{KIND_LABEL[item.kind]}</span>
        {item.name ? <Untrusted className="item-name" text={item.name} /> : null}
        {item.pairId ? (
          <button type="button" className="link pair" onClick={() => onJump(item.pairId!)}>
            {item.kind === 'tool_call' ? 'result' : 'call'} ↗
          </button>
        ) : item.kind === 'tool_call' || item.kind === 'tool_result' ? (
          <span className="badge warn" title="No matching call or result in this file">unpaired</span>
        ) : null}
        {item.isError ? <span className="badge warn">error</span> : null}
        {item.redacted ? <span className="badge muted-badge" title="The exporter replaced this text">redacted · {count(item.redacted.len)} chars</span> : null}
        {item.omission ? <span className="badge omit">{OMISSION_LABEL[item.omission.target]}{item.omission.refs.length ? ` ${item.omission.refs.join(', ')}` : ''}</span> : null}
        {badges}
        {tokens !== undefined ? <span className="item-tokens">{count(tokens)} tok</span> : null}
        <Untrusted className="item-id muted" text={item.id} />
        {item.timestamp ? <time className="muted" dateTime={item.timestamp}>{item.timestamp.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</time> : null}
      </div>
      {body ?? (text ? <div className="item-text">{showControls(text)}</div> : <div className="item-text muted">(empty)</div>)}
      {long && !body ? (
        <button type="button" className="link" onClick={onToggle} aria-expanded={expanded}>
          {expanded ? 'Show less' : `Show all ${count(item.text.length)} characters`}
        </button>
      ) : null}
    </article>
  );
}
