// The widget's styles, inside its shadow root: the page's styles do not reach in (`all: initial`
// on the host stops inherited ones too), and these do not reach out. `--accent` is `data-color`,
// `--on-accent` the text colour that contrasts with it (chosen in colors.ts).
export const CSS = `
:host { all: initial; position: fixed; right: 20px; bottom: 20px; z-index: 2147483000;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1a1a1a; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
.sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
button { font: inherit; cursor: pointer; }
button:focus-visible, textarea:focus-visible, a:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 2px; box-shadow: 0 0 0 5px #fff; }
.launcher { width: 56px; height: 56px; border-radius: 50%; border: none; background: var(--accent); color: var(--on-accent);
  box-shadow: 0 4px 16px rgba(0,0,0,.25); display: grid; place-items: center; position: relative; }
.launcher svg { width: 28px; height: 28px; fill: currentColor; }
.badge { position: absolute; top: 2px; right: 2px; width: 14px; height: 14px; border-radius: 50%; background: #c4122f; border: 2px solid #fff; }
.panel { position: absolute; right: 0; bottom: 72px; width: 380px; height: min(600px, calc(100vh - 112px)); display: flex; flex-direction: column;
  background: #fff; border-radius: 14px; box-shadow: 0 12px 40px rgba(0,0,0,.28); overflow: hidden; }
.header { display: flex; align-items: center; gap: 8px; padding: 14px 12px 14px 16px; background: var(--accent); color: var(--on-accent); }
.header h2 { flex: 1; margin: 0; font-size: 16px; font-weight: 600; }
.icon-button { border: none; background: transparent; color: inherit; width: 36px; height: 36px; border-radius: 8px; display: grid; place-items: center; }
.icon-button svg { width: 20px; height: 20px; fill: currentColor; }
.log { flex: 1; overflow-y: auto; padding: 16px; display: flex; flex-direction: column; gap: 10px; background: #f6f7f9; }
.intro { margin: 0; color: #444; font-size: 14px; }
.notice { margin: 0; padding: 8px 10px; border-radius: 8px; background: #fff4d6; color: #4a3500; font-size: 14px; }
.message { max-width: 85%; padding: 9px 12px; border-radius: 12px; overflow-wrap: anywhere; }
.message.user { align-self: flex-end; background: var(--accent); color: var(--on-accent); border-bottom-right-radius: 4px; white-space: pre-wrap; }
.message.user.failed { opacity: .8; }
.message.reply { align-self: flex-start; background: #fff; border: 1px solid #dfe3e8; border-bottom-left-radius: 4px; }
.message.person { border-color: #9aa5b1; }
.who { display: block; font-size: 12px; font-weight: 600; color: #4a5561; margin-bottom: 2px; }
.message p { margin: 0 0 8px; } .message p:last-child { margin-bottom: 0; }
.message ul, .message ol { margin: 0 0 8px; padding-left: 20px; }
.message pre { margin: 0 0 8px; padding: 8px; background: #f0f2f4; border-radius: 6px; overflow-x: auto; white-space: pre; }
.message code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.message blockquote { margin: 0 0 8px; padding-left: 10px; border-left: 3px solid #c5ccd3; color: #3d4650; }
.message a { color: #0b57d0; text-decoration: underline; }
.message.user a { color: inherit; }
.feedback { display: flex; gap: 4px; margin-top: 6px; align-items: center; }
.feedback button { border: 1px solid #8a949e; background: #fff; border-radius: 6px; width: 32px; height: 28px; display: grid; place-items: center; color: #3d4650; }
.feedback svg { width: 16px; height: 16px; fill: currentColor; }
.feedback button[aria-pressed="true"] { background: #1a1a1a; border-color: #1a1a1a; color: #fff; }
.feedback span { font-size: 12px; color: #4a5561; margin-left: 4px; }
.failure { display: block; margin-top: 4px; font-size: 12px; }
.failure button { border: none; background: none; color: inherit; text-decoration: underline; padding: 0; margin-left: 4px; }
.typing { align-self: flex-start; display: flex; gap: 4px; padding: 12px 14px; background: #fff; border: 1px solid #dfe3e8; border-radius: 12px; }
.typing i { width: 7px; height: 7px; border-radius: 50%; background: #6b7682; animation: blink 1.2s infinite ease-in-out; }
.typing i:nth-child(2) { animation-delay: .2s; } .typing i:nth-child(3) { animation-delay: .4s; }
@keyframes blink { 0%, 80%, 100% { opacity: .3; } 40% { opacity: 1; } }
@media (prefers-reduced-motion: reduce) { .typing i { animation: none; } }
.composer { border-top: 1px solid #dfe3e8; padding: 10px 12px 12px; background: #fff; }
.row { display: flex; gap: 8px; align-items: flex-end; }
.composer textarea { flex: 1; resize: none; min-height: 40px; max-height: 120px; padding: 9px 10px; border: 1px solid #8a949e; border-radius: 8px; font: inherit; color: #1a1a1a; }
.send { border: none; border-radius: 8px; background: var(--accent); color: var(--on-accent); padding: 0 14px; height: 40px; font-weight: 600; }
.send:disabled { opacity: .6; cursor: default; }
.person-button { margin-top: 8px; border: none; background: none; padding: 2px 0; color: #0b57d0; text-decoration: underline; font-size: 14px; }
@media (max-width: 480px) {
  :host { right: 12px; bottom: 12px; }
  .panel { position: fixed; inset: 0; width: auto; height: 100%; border-radius: 0; }
}
`;
