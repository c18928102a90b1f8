/**
 * What erasure does to what a Zap receives (docs/security.md, "In short"): the clinic removes the
 * patient's contact fields and keeps the names and file number, so after erasure the patient of an appointment's
 * item has empty phone and email, and its names and file number still show.
 */
import { frontDeskBooking, startWorld, type Json, type World } from './app-helpers';

let w: World;

beforeAll(async () => {
  w = await startWorld();
});
afterAll(async () => {
  await w?.close();
});

it("an erased patient's items carry the names and file number, never the phone or email", async () => {
  // A patient file of its own, opened by a booking by phone, so the seeded patients stay as they are.
  const booked = await frontDeskBooking(w, {
    patient_id: undefined,
    patient_phone: '+966500000654',
    patient_name: 'نورة العتيبي',
  });
  const before = await w.run<Json[]>('searches', 'find_appointment', { appointment_id: booked.id });
  expect(before[0]!.patient).toMatchObject({ name_ar: 'نورة العتيبي', phone: '+966500000654' });

  const erased = await w.control(`/clinic/patients/${booked.patient_id}/erase`, { method: 'POST' });
  expect(erased.status).toBe(200);

  const after = await w.run<Json[]>('searches', 'find_appointment', { appointment_id: booked.id });
  expect(after[0]!.patient).toEqual({
    name_ar: 'نورة العتيبي',
    name_en: before[0]!.patient.name_en,
    phone: null,
    email: null,
    file_no: before[0]!.patient.file_no,
    status: 'found',
  });
  expect(after[0]!.patient.file_no).toEqual(expect.any(String));
});
