//! The serial worker's added latency: from the last byte of a LiBoard frame written to a
//! pseudo-terminal to the recognizer's event arriving on the worker's channel.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use boardsight::connection::{Update, connect};
use boardsight::protocol::{Protocol, liboard};
use boardsight::recognizer::Config;
use criterion::{Criterion, criterion_group, criterion_main};
use serialport::{SerialPort, TTYPort};
use shakmaty::{Bitboard, Square};

fn worker_latency(c: &mut Criterion) {
    let (mut master, slave) = TTYPort::pair().expect("a pseudo-terminal");
    let path = slave.name().expect("its name");
    let connection = connect(&path, Protocol::Liboard, Config::default(), Arc::new(|| {}));
    let start = Bitboard(0xffff_0000_0000_ffff);
    let lifted = start.without(Square::E2);
    let played = lifted.with(Square::E4);
    let back = played.without(Square::E4);
    // Each frame makes an event: waiting, the move, waiting, the takeback.
    let cycle = [lifted, played, back, start];
    let send_and_wait = |master: &mut TTYPort, occupancy: Bitboard| -> Duration {
        // LiBoard frames are apart by a silence.
        std::thread::sleep(Duration::from_millis(5));
        let sent = Instant::now();
        master
            .write_all(&liboard::encode(occupancy))
            .expect("write");
        loop {
            match connection.updates.recv_timeout(Duration::from_secs(5)) {
                Ok(Update::Change(change)) if !change.events.is_empty() => return sent.elapsed(),
                Ok(_) => {}
                Err(e) => panic!("no event: {e}"),
            }
        }
    };
    send_and_wait(&mut master, start);
    let mut next = 0;
    c.bench_function("worker latency: frame to event", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                total += send_and_wait(&mut master, cycle[next % cycle.len()]);
                next += 1;
            }
            total
        })
    });
    drop(slave);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(8));
    targets = worker_latency
}
criterion_main!(benches);
