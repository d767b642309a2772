// Keeps a fault inside the view that raised it; the rest of the app goes on working.
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  name: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.name} failed:`, error.message, info.componentStack?.split('\n').slice(0, 3).join(' '));
  }

  override render() {
    if (this.state.error) {
      return (
        <div role="alert" className="view-error">
          <strong>{this.props.name} could not be shown.</strong> {this.state.error.message}
          <button type="button" className="link" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
        </div>
      );
    }
    return this.props.children;
  }
}
