# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# write_etc DIR — the generated /etc of the embedded sample rootfs (sourced
# by make-embedded-rootfs.sh).  Plain text a small board really carries.

write_etc() {
	e=$1
	cat > "$e/passwd" <<'X'
root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/bin/false
bin:x:2:2:bin:/bin:/bin/false
sys:x:3:3:sys:/dev:/bin/false
sync:x:4:100:sync:/bin:/bin/sync
www-data:x:33:33:www-data:/var/www:/bin/false
user:x:1000:1000:Default user:/home/user:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
X
	cat > "$e/group" <<'X'
root:x:0:
daemon:x:1:
bin:x:2:
sys:x:3:
adm:x:4:
tty:x:5:
disk:x:6:
dialout:x:20:user
www-data:x:33:
users:x:100:
user:x:1000:
nogroup:x:65534:
X
	cat > "$e/shadow" <<'X'
root::19000:0:99999:7:::
daemon:*:19000:0:99999:7:::
bin:*:19000:0:99999:7:::
sys:*:19000:0:99999:7:::
sync:*:19000:0:99999:7:::
www-data:*:19000:0:99999:7:::
user:!:19000:0:99999:7:::
nobody:*:19000:0:99999:7:::
X
	chmod 600 "$e/shadow"
	cat > "$e/inittab" <<'X'
# /etc/inittab for busybox init
::sysinit:/etc/init.d/rcS
::askfirst:-/bin/sh
ttyS0::respawn:/sbin/getty -L 115200 ttyS0 vt100
::ctrlaltdel:/sbin/reboot
::shutdown:/etc/init.d/rcK
::shutdown:/bin/umount -a -r
::restart:/sbin/init
X
	cat > "$e/fstab" <<'X'
# <file system>	<mount pt>	<type>	<options>	<dump>	<pass>
/dev/root	/		squashfs ro		0	0
proc		/proc		proc	defaults	0	0
sysfs		/sys		sysfs	defaults	0	0
devpts		/dev/pts	devpts	gid=5,mode=620	0	0
tmpfs		/dev/shm	tmpfs	mode=1777	0	0
tmpfs		/tmp		tmpfs	mode=1777	0	0
tmpfs		/var/run	tmpfs	mode=0755,nosuid,nodev	0	0
X
	cat > "$e/init.d/rcS" <<'X'
#!/bin/sh
# Start every S??* script in /etc/init.d in numerical order.
for i in /etc/init.d/S??*; do
	[ -x "$i" ] || continue
	case "$i" in
	*.sh) ( trap - INT QUIT TSTP; set start; . "$i" ) ;;
	*) "$i" start ;;
	esac
done
X
	cat > "$e/init.d/rcK" <<'X'
#!/bin/sh
# Stop every S??* script in /etc/init.d in reverse order.
for i in $(ls -r /etc/init.d/S??*); do
	[ -x "$i" ] || continue
	"$i" stop
done
X
	cat > "$e/init.d/S01mount" <<'X'
#!/bin/sh
case "$1" in
start)
	mount -a
	mkdir -p /dev/pts /dev/shm
	hostname -F /etc/hostname
	;;
stop) ;;
esac
X
	cat > "$e/init.d/S10syslog" <<'X'
#!/bin/sh
case "$1" in
start) syslogd -C64 && klogd ;;
stop) killall klogd syslogd ;;
restart) "$0" stop; "$0" start ;;
*) echo "usage: $0 {start|stop|restart}"; exit 1 ;;
esac
X
	cat > "$e/init.d/S40network" <<'X'
#!/bin/sh
case "$1" in
start) ifconfig lo 127.0.0.1 up; ifup -a ;;
stop) ifdown -a ;;
*) echo "usage: $0 {start|stop}"; exit 1 ;;
esac
X
	cat > "$e/init.d/S50httpd" <<'X'
#!/bin/sh
case "$1" in
start) httpd -h /var/www -u www-data ;;
stop) killall httpd ;;
*) echo "usage: $0 {start|stop}"; exit 1 ;;
esac
X
	chmod 755 "$e"/init.d/*
	cat > "$e/network/interfaces" <<'X'
auto lo
iface lo inet loopback

auto eth0
iface eth0 inet dhcp
	udhcpc_opts -t 5 -T 3
X
	echo "flashfs-demo" > "$e/hostname"
	printf '127.0.0.1\tlocalhost\n127.0.1.1\tflashfs-demo\n' > "$e/hosts"
	printf 'Embedded demo rootfs (flashfs-tools) \\n \\l\n\n' > "$e/issue"
	cat > "$e/os-release" <<'X'
NAME="flashfs demo"
ID=flashfs-demo
PRETTY_NAME="flashfs-tools embedded demo rootfs"
VERSION_ID=1
X
	cat > "$e/profile" <<'X'
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export PS1='\u@\h:\w\$ '
umask 022
[ -f /etc/motd ] && cat /etc/motd
X
	printf 'nameserver 10.0.2.3\n' > "$e/resolv.conf"
	cat > "$e/../var/www/index.html" <<'X'
<!DOCTYPE html>
<html><head><title>flashfs demo</title></head>
<body><h1>It boots.</h1><p>This page is served by busybox httpd from a SquashFS root.</p></body>
</html>
X
}
