/**
 * Electron, mocked: the shell's tests run where no Electron binary exists. A test file mocks it
 * with `vi.mock('electron', () => import('./electron-mock').then((m) => m.electron.module))` and
 * reads what was shown from `electron`.
 */
const shown: Array<{ title: string; body: string; urgency: string; click?: () => void }> = [];
class Notification {
  static isSupported = () => true;
  private handlers: Record<string, () => void> = {};
  constructor(readonly opts: { title: string; body: string; urgency: string }) {}
  on(ev: string, f: () => void) {
    this.handlers[ev] = f;
    return this;
  }
  show() {
    shown.push({ ...this.opts, click: this.handlers['click'] });
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
