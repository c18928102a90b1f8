it('x', () => expect(1).toBe(1));
