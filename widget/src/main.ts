// The widget's entry: `<script src="https://parley.example/widget.js" data-key="pk_..." async></script>`.
// It reads its settings from its own script tag (docs/widget.md "Embedding"), then adds the chat
// to the page once the body exists. Loaded twice on one page, it adds the chat once.
import { ChatWidget, type WidgetConfig } from './widget';

function ownScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.dataset.key) return current;
  return document.querySelector<HTMLScriptElement>('script[data-key][src*="widget.js"]');
}

function userAttributes(raw: string | undefined): Record<string, unknown> | null {
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  console.error('Parley widget: data-user-attributes must be a JSON object, such as {"email":"ada@example.com"}; ignored');
  return null;
}

const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

function configOf(script: HTMLScriptElement): WidgetConfig | null {
  const key = script.dataset.key?.trim() ?? '';
  if (!/^pk_[A-Za-z0-9_-]+$/.test(key)) {
    console.error('Parley widget: data-key must be a widget key (pk_...) of your agent');
    return null;
  }
  const requested = script.dataset.locale?.trim() || navigator.language || 'en';
  return {
    base: new URL(script.src, location.href).origin,
    key,
    title: script.dataset.title?.trim() || null,
    color: script.dataset.color?.trim() || null,
    locale: LOCALE.test(requested) ? requested : 'en',
    userAttributes: userAttributes(script.dataset.userAttributes),
  };
}

function start(): void {
  if (document.querySelector('[data-parley-widget]')) return;
  const script = ownScript();
  const config = script ? configOf(script) : null;
  if (!config) return;
  const mount = () => new ChatWidget(config).mount(document.body);
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount, { once: true });
}

start();
