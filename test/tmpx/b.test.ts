import { createAppTester } from 'zapier-platform-core';
import App from '../../index';
it('x', () => expect(typeof createAppTester(App)).toBe('function'));
