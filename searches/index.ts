import { findAppointment } from './find_appointment';
import { findInvoice } from './find_invoice';
import { findItem } from './find_item';
import { findOrder } from './find_order';
import { findPatient } from './find_patient';
import { findReceipt } from './find_receipt';
import { findStockLevel } from './find_stock_level';
import { findZReport } from './find_z_report';

/** Every search of the app (CONTRACT §4). */
export const searches = [
  findPatient,
  findAppointment,
  findInvoice,
  findItem,
  findOrder,
  findReceipt,
  findStockLevel,
  findZReport,
];
