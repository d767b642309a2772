// A button that opens the browser's file chooser for several files and hands on what was picked. The input is emptied
// each time, so picking the same file again is a new pick.
import { useRef, type ButtonHTMLAttributes, type ReactNode } from 'react';

export function FilePicker({ children, label, accept, onFiles, button }: {
  children: ReactNode;
  /** The hidden input's accessible name. */
  label: string;
  accept?: string;
  onFiles(files: File[]): void;
  button?: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'type'>;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" {...button} onClick={() => input.current?.click()}>
        {children}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label={label}
        {...(accept ? { accept } : {})}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          onFiles(files);
        }}
      />
    </>
  );
}
