/**
 * Electron, mocked: the shell's tests run where no Electron binary exists. A test file mocks it
 * with `vi.mock('electron', () => import('./electron-mock').then((m) => m.electron.module))` and
 * reads what was shown from `electron`.
 */
/** What a notification showed, each time it was shown (a burst's notification is shown again in place as it grows). */
export interface ShownNotification {
  id?: string;
  title: string;
  body: string;
  urgency: string;
  silent: boolean;
  click?: () => void;
}
const shown: ShownNotification[] = [];
class Notification {
  static isSupported = () => true;
  private handlers: Record<string, () => void> = {};
  readonly id?: string;
  title = '';
  body = '';
  urgency = 'low';
  silent = false;
  timeoutType = 'default';
  constructor(opts: { id?: string; title: string; body: string; urgency: string; silent?: boolean }) {
    Object.assign(this, opts);
  }
  on(ev: string, f: () => void) {
    this.handlers[ev] = f;
    return this;
  }
  show() {
    const { id, title, body, urgency, silent } = this;
    shown.push({ ...(id === undefined ? {} : { id }), title, body, urgency, silent, click: this.handlers['click'] });
  }
}
const trays: Array<{ image: string; tooltip?: string; title?: string; menu?: any[] }> = [];
class Tray {
  state: { image: string; tooltip?: string; title?: string; menu?: any[] };
  constructor(image: { path: string }) {
    this.state = { image: image.path };
    trays.push(this.state);
  }
  on() {}
  setImage(image: { path: string }) {
    this.state.image = image.path;
  }
  setToolTip(t: string) {
    this.state.tooltip = t;
  }
  setTitle(t: string) {
    this.state.title = t;
  }
  setContextMenu(m: { template: any[] }) {
    this.state.menu = m.template;
  }
  destroy() {}
}

export const electron = {
  shown,
  trays,
  module: {
    Notification,
    Tray,
    Menu: { buildFromTemplate: (template: any[]) => ({ template }) },
    nativeImage: { createFromPath: (path: string) => ({ path, setTemplateImage: () => {} }) },
  },
};
