import { Component, type ReactNode } from 'react';
import { ChunkLoadError, recoverFromChunkFailure, retryFailedStyles } from '../lib/chunk-load.ts';
import { homePath } from '../lib/paths.ts';

interface Props {
  children: ReactNode;
  /** The screen's frame (its skeleton), drawn around the message when the screen's code did not arrive. */
  frame?: (props: { children?: ReactNode }) => ReactNode;
  /** The screen's code did not arrive and the message shows: the next mount (重试) is to import again. */
  onLoadFailed?(): void;
}

interface State {
  error: unknown;
  failed: boolean;
  /** 重试 was tapped: a failure now is a retry's (chunk-load.ts reloads once if the site answers). */
  retried: boolean;
}

/** What a screen whose code did not arrive says, with 重试. */
function LoadFailed({ onRetry }: { onRetry(): void }) {
  return (
    <div className="load-failed" role="alert">
      <p>页面加载失败，请检查网络后重试</p>
      <button type="button" onClick={onRetry}>
        重试
      </button>
    </div>
  );
}

/**
 * Nothing crashes to a blank screen. A screen whose code did not load (the network dropped, a deploy removed the
 * chunk) keeps its frame and says so with 重试, reloading the page once when a new version is out; a screen that
 * broke while rendering offers the way home.
 */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, failed: false, retried: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  componentDidCatch(error: unknown) {
    if (error instanceof ChunkLoadError) {
      console.warn('screen code did not load', error.cause);
      this.props.onLoadFailed?.();
      void recoverFromChunkFailure(this.state.retried);
    } else {
      console.error('screen failed', error);
    }
  }

  retry = () => {
    retryFailedStyles();
    this.setState({ error: null, failed: false, retried: true });
  };

  render() {
    const { failed, error } = this.state;
    if (!failed) return this.props.children;
    if (error instanceof ChunkLoadError) {
      const Frame = this.props.frame;
      const message = <LoadFailed onRetry={this.retry} />;
      return Frame ? <Frame>{message}</Frame> : message;
    }
    return (
      <div className="error-screen" role="alert">
        <p>页面出错了</p>
        <a href={homePath()}>返回首页</a>
      </div>
    );
  }
}
