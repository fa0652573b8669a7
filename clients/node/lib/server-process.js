// The server process a client owns.

const STDERR_TAIL_CHARS = 8192;

/**
 * A child process spawned with piped stdin and stdout: when and how it exited, the last 8 KiB of its
 * stderr (when piped), and stopping it.
 * Threading: none; used on the event loop only.
 */
export class ServerProcess {
  #child;
  #exitStatus = null;
  #stderrTail = '';
  /** Resolves once the process has exited and its pipes are closed (or it never started). */
  #done;

  /**
   * @param {import('node:child_process').ChildProcess} child
   * @param {{ onExit: (code: number|null, signal: string|null, spawnError?: Error) => void,
   *   onStderr: (text: string) => void }} events called once / per chunk of stderr
   */
  constructor(child, { onExit, onStderr }) {
    this.#child = child;
    this.#done = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        this.#exitStatus = { code, signal };
        onExit(code, signal);
        resolve();
      });
      child.on('error', (error) => {
        if (child.pid !== undefined) return; // a failed kill(); the process is still ours
        this.#exitStatus = { code: null, signal: null };
        onExit(null, null, error);
        resolve();
      });
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text) => {
      this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL_CHARS);
      onStderr(text);
    });
  }

  get child() {
    return this.#child;
  }

  get pid() {
    return this.#child.pid;
  }

  /** `{ code, signal }` once it has exited, else null. */
  get exitStatus() {
    return this.#exitStatus && { ...this.#exitStatus };
  }

  /** The last 8 KiB it wrote to a piped stderr. */
  get stderrTail() {
    return this.#stderrTail;
  }

  /**
   * Waits `closeTimeoutMs` for it to exit (its input already ended), then SIGTERM, then after
   * `killGraceMs` SIGKILL. Resolves with its exit status.
   */
  async stop({ closeTimeoutMs, killGraceMs }) {
    if (!(await settlesWithin(this.#done, closeTimeoutMs))) {
      this.#child.kill('SIGTERM');
      if (!(await settlesWithin(this.#done, killGraceMs))) {
        this.#child.kill('SIGKILL');
        await this.#done;
      }
    }
    return { ...this.#exitStatus };
  }
}

/** True when `promise` settles within `ms`; the timer never outlives the wait. */
export async function settlesWithin(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
