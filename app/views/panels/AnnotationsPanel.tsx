// Annotations: every note and tag of this session in session order, each one click from what it is
// about; add a note to the selected item, the current call or a range of calls; edit and delete.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { describeTarget, normalizeTags, sortAnnotations, SUGGESTED_TAGS, tagsInUse, type Annotation, type AnnotationTarget } from '../../../src/share';
import { useActiveSession, useApp } from '../../store';
import { EMPTY_NOTES, notesKey } from '../../store/annotations-slice';
import { addNote, deleteNote, editNote } from '../../data/annotation-actions';
import { goToTarget, itemLabel, itemPositions, parseTagInput, tagChoices, touchesCall } from './annotation-helpers';
import type { PanelProps } from './panel-props';
import './annotations.css';

const VIRTUALIZE_OVER = 60;

type Editing = { mode: 'new'; target: AnnotationTarget } | { mode: 'edit'; note: Annotation };

export default function AnnotationsPanel({ view, callIndex, itemById, goTo }: PanelProps) {
  const active = useActiveSession();
  const key = active ? notesKey(active) : '';
  const list = useApp((s) => s.annotations[key] ?? EMPTY_NOTES);
  const selected = useApp((s) => s.selectedItemId);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const positions = useMemo(() => itemPositions(view.calls, view.spans), [view]);
  const sorted = useMemo(() => sortAnnotations(list, (id) => positions.get(id)), [list, positions]);
  const label = (id: string) => itemLabel(itemById.get(id), id);
  const inContext = useMemo(() => {
    const ids = new Set((view.calls[callIndex]?.entries ?? []).map((e) => e.id));
    return (id: string) => ids.has(id);
  }, [view, callIndex]);
  const calls = view.calls.length;
  const selectedHere = selected !== null && itemById.has(selected) ? selected : null;

  const save = (target: AnnotationTarget, note: string, tags: string[]) => {
    if (!key) return;
    if (editing?.mode === 'edit') {
      editNote(key, editing.note.id, { target, note, tags });
      setStatus(`Saved the note on ${describeTarget(target)}.`);
    } else {
      addNote(key, { target, note, tags });
      setStatus(`Added a note on ${describeTarget(target)}.`);
    }
    setEditing(null);
  };

  return (
    <div className="notes-panel">
      <div className="notes-toolbar">
        <p className="notes-overview">
          {list.length ? (
            <>
              <strong>{list.length}</strong> note{list.length === 1 ? '' : 's'} on this session
            </>
          ) : (
            'No notes yet'
          )}
          <span className="muted small"> · kept in this browser, shared with the link or a bundle</span>
          {selectedHere ? (
            <span className="small notes-selected">
              {' '}
              · Add note writes on the selected item <code>{selectedHere}</code>
            </span>
          ) : null}
        </p>
        <div className="notes-actions">
          <button
            type="button"
            className="primary"
            onClick={() => setEditing({ mode: 'new', target: selectedHere ? { kind: 'item', itemId: selectedHere } : { kind: 'call', call: Math.min(callIndex + 1, Math.max(1, calls)) } })}
            title={selectedHere ? `Note on the selected item ${selectedHere}` : `Note on call ${callIndex + 1}`}
          >
            Add note
          </button>
          <button type="button" onClick={() => setEditing({ mode: 'new', target: { kind: 'range', fromCall: callIndex + 1, toCall: Math.min(calls || 1, callIndex + 2) } })} disabled={calls < 1}>
            Note a range of calls
          </button>
        </div>
      </div>
      {status ? (
        <p className="notes-status" role="status">
          {status}
        </p>
      ) : null}
      {editing ? (
        <NoteEditor
          key={editing.mode === 'edit' ? editing.note.id : JSON.stringify(editing.target)}
          initial={editing.mode === 'edit' ? editing.note : { target: editing.target, note: '', tags: [] }}
          editingExisting={editing.mode === 'edit'}
          selectedItem={selectedHere}
          currentCall={Math.min(callIndex + 1, Math.max(1, calls))}
          calls={calls}
          label={label}
          tagsInUse={tagsInUse(list)}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      {sorted.length === 0 && !editing ? (
        <div className="notes-empty">
          <p>Notes mark what you found: a fact a summary lost, a good summary, the call where the cache broke.</p>
          <p className="muted small">
            Select an item in the context (or stay on a call) and press <strong>Add note</strong>. Tags such as {SUGGESTED_TAGS.slice(0, 2).map((t) => `“${t}”`).join(' and ')} make them easy to find. Notes travel with <strong>Copy share link</strong> and{' '}
            <strong>Export bundle</strong>.
          </p>
        </div>
      ) : (
        <NoteList
          notes={sorted}
          render={(a) => (
            <NoteCard
              a={a}
              here={touchesCall(a.target, callIndex, positions, inContext)}
              where={describeTarget(a.target, label)}
              confirming={confirming === a.id}
              onGo={() => goTo(goToTarget(a.target))}
              onEdit={() => setEditing({ mode: 'edit', note: a })}
              onDelete={() => setConfirming(a.id)}
              onConfirmDelete={() => {
                deleteNote(key, a.id);
                setConfirming(null);
                setStatus(`Deleted the note on ${describeTarget(a.target)}.`);
              }}
              onKeep={() => setConfirming(null)}
            />
          )}
        />
      )}
    </div>
  );
}

function NoteList({ notes, render }: { notes: Annotation[]; render(a: Annotation): ReactNode }) {
  const parent = useRef<HTMLDivElement>(null);
  const big = notes.length > VIRTUALIZE_OVER;
  const v = useVirtualizer({ count: big ? notes.length : 0, getScrollElement: () => parent.current, estimateSize: () => 96, overscan: 6 });
  if (!big) {
    return (
      <ol className="notes-list" aria-label="Notes">
        {notes.map((a) => (
          <li key={a.id}>{render(a)}</li>
        ))}
      </ol>
    );
  }
  return (
    <div ref={parent} className="notes-scroll">
      <ol className="notes-list notes-virtual" aria-label="Notes" style={{ height: v.getTotalSize() }}>
        {v.getVirtualItems().map((r) => (
          <li key={notes[r.index]!.id} ref={v.measureElement} data-index={r.index} className="notes-slot" style={{ transform: `translateY(${r.start}px)` }}>
            {render(notes[r.index]!)}
          </li>
        ))}
      </ol>
    </div>
  );
}

interface CardProps {
  a: Annotation;
  here: boolean;
  where: string;
  confirming: boolean;
  onGo(): void;
  onEdit(): void;
  onDelete(): void;
  onConfirmDelete(): void;
  onKeep(): void;
}

function NoteCard({ a, here, where, confirming, onGo, onEdit, onDelete, onConfirmDelete, onKeep }: CardProps) {
  const edited = a.updatedAt !== a.createdAt;
  return (
    <article className={here ? 'note-card here' : 'note-card'} aria-label={`Note on ${where}`}>
      <div className="note-head">
        <button type="button" className="note-target" onClick={onGo} aria-label={`Go to ${where}`} title="Show it in the context">
          {where} <span aria-hidden="true">↗</span>
        </button>
        {here ? <span className="badge note-here">at this call</span> : null}
        <span className="note-date muted small" title={`Created ${a.createdAt}${edited ? `, edited ${a.updatedAt}` : ''}`}>
          {a.author ? `${a.author} · ` : ''}
          {shortDate(a.updatedAt)}
          {edited ? ' (edited)' : ''}
        </span>
      </div>
      {a.note ? <p className="note-text">{a.note}</p> : <p className="note-text muted">(no text)</p>}
      {a.tags.length ? (
        <ul className="note-tags" aria-label="Tags">
          {a.tags.map((t) => (
            <li key={t} className="tag">
              {t}
            </li>
          ))}
        </ul>
      ) : null}
      {confirming ? (
        <div className="note-confirm" role="group" aria-label="Delete this note?">
          <span>Delete this note?</span>
          <button type="button" className="danger" onClick={onConfirmDelete}>
            Delete
          </button>
          <button type="button" onClick={onKeep} autoFocus>
            Keep
          </button>
        </div>
      ) : (
        <div className="note-buttons">
          <button type="button" className="link" onClick={onEdit} aria-label={`Edit note on ${where}`}>
            Edit
          </button>
          <button type="button" className="link" onClick={onDelete} aria-label={`Delete note on ${where}`}>
            Delete
          </button>
        </div>
      )}
    </article>
  );
}

function shortDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

interface EditorProps {
  initial: { target: AnnotationTarget; note: string; tags: readonly string[] };
  editingExisting: boolean;
  selectedItem: string | null;
  currentCall: number;
  calls: number;
  label(id: string): string;
  tagsInUse: string[];
  onSave(target: AnnotationTarget, note: string, tags: string[]): void;
  onCancel(): void;
}

type Kind = AnnotationTarget['kind'];

function NoteEditor({ initial, editingExisting, selectedItem, currentCall, calls, label, tagsInUse: inUse, onSave, onCancel }: EditorProps) {
  const id = useId();
  const t0 = initial.target;
  const [kind, setKind] = useState<Kind>(t0.kind);
  const itemId = t0.kind === 'item' ? t0.itemId : selectedItem;
  const [call, setCall] = useState(t0.kind === 'call' ? t0.call : currentCall);
  const [from, setFrom] = useState(t0.kind === 'range' ? t0.fromCall : currentCall);
  const [to, setTo] = useState(t0.kind === 'range' ? t0.toCall : Math.min(Math.max(1, calls), currentCall + 1));
  const [note, setNote] = useState(initial.note);
  const [tags, setTags] = useState<string[]>([...initial.tags]);
  const [typed, setTyped] = useState('');
  const choices = tagChoices(SUGGESTED_TAGS, inUse);
  const max = Math.max(1, calls);
  const clamp = (n: number) => Math.min(max, Math.max(1, Math.round(Number.isFinite(n) ? n : 1)));

  const target = (): AnnotationTarget | null => {
    switch (kind) {
      case 'item':
        return itemId ? { kind: 'item', itemId } : null;
      case 'call':
        return { kind: 'call', call: clamp(call) };
      case 'range':
        return { kind: 'range', fromCall: clamp(Math.min(from, to)), toCall: clamp(Math.max(from, to)) };
      case 'item-range':
        return t0.kind === 'item-range' ? t0 : null;
    }
  };
  const allTags = normalizeTags([...tags, ...parseTagInput(typed)]);
  const t = target();
  const canSave = t !== null && (note.trim().length > 0 || allTags.length > 0);
  const submit = () => {
    if (t && canSave) onSave(t, note.trim(), allTags);
  };
  const toggle = (tag: string) => setTags((cur) => (cur.some((x) => x.toLowerCase() === tag.toLowerCase()) ? cur.filter((x) => x.toLowerCase() !== tag.toLowerCase()) : [...cur, tag]));

  return (
    <form
      className="note-editor"
      aria-label={editingExisting ? 'Edit note' : 'New note'}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onCancel();
        }
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
      }}
    >
      <fieldset className="note-on">
        <legend>Note on</legend>
        {itemId ? (
          <label>
            <input type="radio" name={`${id}-kind`} checked={kind === 'item'} onChange={() => setKind('item')} /> Item <code>{label(itemId)}</code>
          </label>
        ) : null}
        {t0.kind === 'item-range' ? (
          <label>
            <input type="radio" name={`${id}-kind`} checked={kind === 'item-range'} onChange={() => setKind('item-range')} /> {describeTarget(t0, label)}
          </label>
        ) : null}
        <label>
          <input type="radio" name={`${id}-kind`} checked={kind === 'call'} onChange={() => setKind('call')} /> Call{' '}
          <input type="number" className="num" aria-label="Call number" min={1} max={max} value={call} onChange={(e) => setCall(Number(e.target.value))} onFocus={() => setKind('call')} />
        </label>
        <label>
          <input type="radio" name={`${id}-kind`} checked={kind === 'range'} onChange={() => setKind('range')} /> Calls{' '}
          <input type="number" className="num" aria-label="From call" min={1} max={max} value={from} onChange={(e) => setFrom(Number(e.target.value))} onFocus={() => setKind('range')} /> to{' '}
          <input type="number" className="num" aria-label="To call" min={1} max={max} value={to} onChange={(e) => setTo(Number(e.target.value))} onFocus={() => setKind('range')} />
        </label>
      </fieldset>
      <label className="note-field">
        <span>Note</span>
        <textarea value={note} onChange={(e) => setNote(e.target.value)} rows={3} autoFocus placeholder="What did you find here?" />
      </label>
      <fieldset className="note-tag-picker">
        <legend>Tags</legend>
        <div className="tag-choices">
          {choices.map((c) => {
            const on = tags.some((x) => x.toLowerCase() === c.toLowerCase());
            return (
              <button key={c} type="button" className={on ? 'tag-toggle on' : 'tag-toggle'} aria-pressed={on} onClick={() => toggle(c)}>
                {c}
              </button>
            );
          })}
        </div>
        <label className="note-field">
          <span className="small muted">Other tags, separated by commas</span>
          <input type="text" value={typed} onChange={(e) => setTyped(e.target.value)} aria-label="Other tags" />
        </label>
      </fieldset>
      <div className="note-editor-actions">
        <span className="muted small">Ctrl+Enter saves · Esc cancels</span>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!canSave}>
          Save note
        </button>
      </div>
    </form>
  );
}
