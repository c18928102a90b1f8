import { bookAppointment } from './book_appointment';
import { cancelAppointment } from './cancel_appointment';
import { cancelOrder } from './cancel_order';
import { createItem } from './create_item';
import { createOrder } from './create_order';
import { updateItem } from './update_item';

/** Every action of the app (CONTRACT §3). */
export const creates = [bookAppointment, cancelAppointment, createOrder, cancelOrder, createItem, updateItem];
