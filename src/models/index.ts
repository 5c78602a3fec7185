/**
 * Which model client a loop gets, from the settings the page sent. Each worker builds its own.
 */
import type { ModelClient } from '../core/model';
import type { ModelConfig } from './config';
import { DemoModel } from './demo';

export async function createModel(config: ModelConfig): Promise<ModelClient> {
  switch (config.provider) {
    case 'demo':
      return new DemoModel({ speed: config.speed, gate: config.gate });
    case 'anthropic': {
      // Loaded on demand: only workers that talk to an API pay for the SDK.
      const { AnthropicModel } = await import('./anthropic');
      return new AnthropicModel(config);
    }
  }
}
