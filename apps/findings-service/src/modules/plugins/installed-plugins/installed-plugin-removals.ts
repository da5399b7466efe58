import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** What another module forgets of an installation when it is uninstalled (in its transaction). */
export type InstalledPluginRemoval = (manager: EntityManager, pluginId: string) => Promise<void>;

/**
 * The modules that keep rows of an installation in their own tables register here what they
 * remove at uninstall (the plugin channels: each project's settings and sealed secrets of the
 * plugin). The plugins module cannot import them (they import it); each table keeps its owner.
 */
@Injectable()
export class InstalledPluginRemovals {
  private readonly removals: InstalledPluginRemoval[] = [];

  register(removal: InstalledPluginRemoval): void {
    this.removals.push(removal);
  }

  async run(manager: EntityManager, pluginId: string): Promise<void> {
    for (const removal of this.removals) await removal(manager, pluginId);
  }
}
