import { isAppShell } from '@yueman/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appType, isAndroidShell, isIosDesk } from './app-type.ts';
import { clientType, goesToPcPage, isChatAppBrowser, isWechatBrowser } from './user-agent.ts';

const UA = {
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  wechatAndroid:
    'Mozilla/5.0 (Linux; Android 13; V2227A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36 MicroMessenger/8.0.47.2560(0x28002F30) NetType/WIFI Language/zh_CN',
  qqIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 QQ/9.0.0.0 V1_IPH_SQ_9.0.0_1_APP_A Pixel/1170',
  qqBrowser:
    'Mozilla/5.0 (Linux; U; Android 12; zh-cn; PDEM10) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/109.0 MQQBrowser/14.2 Mobile Safari/537.36',
  shell:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0 Mobile Safari/537.36 YuemanApp/1.4.2',
  desktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

describe('client type from the user agent', () => {
  it('puts WeChat first, even on Android', () => {
    expect(clientType(UA.wechatAndroid)).toBe('wechat');
  });

  it('tells the phone platforms apart and takes anything else for a PC', () => {
    expect(clientType(UA.androidChrome)).toBe('android');
    expect(clientType(UA.shell)).toBe('android');
    expect(clientType(UA.iphoneSafari)).toBe('ios');
    expect(clientType(UA.ipad)).toBe('ios');
    expect(clientType(UA.qqIphone)).toBe('ios');
    expect(clientType(UA.desktop)).toBe('pc');
    expect(clientType('')).toBe('pc');
  });
});

describe('the PC page redirect', () => {
  it('sends a PC browser to the PC page, and a phone browser nowhere', () => {
    expect(goesToPcPage('', UA.desktop)).toBe(true);
    expect(goesToPcPage('?page=3', UA.desktop)).toBe(true);
    expect(goesToPcPage('', UA.androidChrome)).toBe(false);
    expect(goesToPcPage('?from=console', UA.iphoneSafari)).toBe(false);
  });

  it('lets a PC browser through to the page a console link opens (from=console), and for nothing else', () => {
    expect(goesToPcPage('?page=3&from=console', UA.desktop)).toBe(false);
    expect(goesToPcPage('?from=console', UA.desktop)).toBe(false);
    expect(goesToPcPage('?from=consoles', UA.desktop)).toBe(true);
    expect(goesToPcPage('?from=', UA.desktop)).toBe(true);
    expect(goesToPcPage('?console=1', UA.desktop)).toBe(true);
    expect(goesToPcPage('?page=3#from=console', UA.desktop)).toBe(true);
  });
});

describe('chat-app browsers', () => {
  it('are WeChat and the QQ app', () => {
    expect(isChatAppBrowser(UA.wechatAndroid)).toBe(true);
    expect(isChatAppBrowser(UA.qqIphone)).toBe(true);
  });

  it('of which only WeChat can pay inside (JSAPI)', () => {
    expect(isWechatBrowser(UA.wechatAndroid)).toBe(true);
    expect(isWechatBrowser(UA.qqIphone)).toBe(false);
    expect(isWechatBrowser(UA.androidChrome)).toBe(false);
  });

  it('are not the QQ Browser, a phone browser or the app shell', () => {
    expect(isChatAppBrowser(UA.qqBrowser)).toBe(false);
    expect(isChatAppBrowser(UA.androidChrome)).toBe(false);
    expect(isChatAppBrowser(UA.iphoneSafari)).toBe(false);
    expect(isChatAppBrowser(UA.shell)).toBe(false);
  });
});

/** The browser globals app-type reads: the shell's bridge, iOS's standalone flag and display-mode. */
function browser(opts: { bridge?: boolean; standalone?: boolean; displayStandalone?: boolean } = {}) {
  vi.stubGlobal('window', {
    YuemanShell: opts.bridge ? { pay: () => undefined } : undefined,
    matchMedia: (query: string) => ({ matches: query.includes('standalone') && !!opts.displayStandalone }),
  });
  vi.stubGlobal('navigator', { userAgent: '', standalone: opts.standalone });
}

afterEach(() => vi.unstubAllGlobals());

describe('app type (the recharge call asks for the channels of this client)', () => {
  it('is shell in the Android app: by its user-agent marker, or by its bridge on Android', () => {
    browser();
    expect(appType(UA.shell)).toBe('shell');
    expect(isAndroidShell(UA.androidChrome)).toBe(false);
    browser({ bridge: true });
    expect(appType(UA.androidChrome)).toBe('shell');
  });

  it('does not take a bridge on another platform for the Android app', () => {
    browser({ bridge: true });
    expect(isAndroidShell(UA.iphoneSafari)).toBe(false);
    expect(appType(UA.desktop)).toBe('other');
  });

  it('is ios_desk when launched from the iOS home screen', () => {
    browser({ standalone: true });
    expect(appType(UA.iphoneSafari)).toBe('ios_desk');
    browser({ displayStandalone: true });
    expect(isIosDesk(UA.ipad)).toBe(true);
  });

  it('is wap_browser in a phone browser and other anywhere else', () => {
    browser();
    expect(appType(UA.iphoneSafari)).toBe('wap_browser');
    expect(appType(UA.androidChrome)).toBe('wap_browser');
    expect(appType(UA.desktop)).toBe('other');
    expect(appType(UA.wechatAndroid)).toBe('other');
    // standalone on a PC is not the iOS home screen
    browser({ standalone: true, displayStandalone: true });
    expect(appType(UA.desktop)).toBe('other');
  });

  it('fetches app channels for the shells only; web channels navigate', () => {
    expect(isAppShell('shell')).toBe(true);
    expect(isAppShell('ios_desk')).toBe(true);
    expect(isAppShell('wap_browser')).toBe(false);
    expect(isAppShell('other')).toBe(false);
  });
});
