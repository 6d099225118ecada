import { Component, type ReactNode } from 'react';
import { homePath } from '../lib/paths.ts';

/** Nothing crashes to a blank screen: a broken screen offers the way home. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error('screen failed', error);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="error-screen" role="alert">
        <p>页面出错了</p>
        <a href={homePath()}>返回首页</a>
      </div>
    );
  }
}
