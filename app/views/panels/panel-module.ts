// A panel's code, fetched on first need or ahead of it. Not React.lazy: React 19 holds a Suspense boundary's
// content back for 300 ms to batch reveals, so every first click on a panel cost 300 ms of nothing. A module
// that is already here renders at once; one that is not shows a loading line until it is.
import type { ComponentType } from 'react';
import type { PanelProps } from './panel-props';

export interface PanelModule {
  /** The component once fetched, else null. */
  loaded(): ComponentType<PanelProps> | null;
  /** Fetches it (once; a failed fetch may be tried again). */
  load(): Promise<ComponentType<PanelProps>>;
}

export function panelModule(importer: () => Promise<{ default: ComponentType<PanelProps> }>): PanelModule {
  let component: ComponentType<PanelProps> | null = null;
  let pending: Promise<ComponentType<PanelProps>> | null = null;
  return {
    loaded: () => component,
    load() {
      if (component) return Promise.resolve(component);
      pending ??= importer().then(
        (m) => (component = m.default),
        (e: unknown) => {
          pending = null;
          throw e;
        },
      );
      return pending;
    },
  };
}
