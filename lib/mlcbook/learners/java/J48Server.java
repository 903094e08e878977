// One JVM serving many Weka J48 fits for mlcbook.learners.j48 (see _weka.py).
// Binary protocol on stdin/stdout, big-endian (java.io.DataInput/DataOutput):
//   request  = command byte + payload, read completely before any work starts;
//   response = int status (0 ok, 1 error + UTF message, 2 unknown model id) + payload.
// Commands
//   'F' fit:     options(UTF) header rows(int) X(rows*d doubles, NaN = missing) y(rows ints)
//                -> id(int) model(int length + Java-serialised {J48, header} bytes)
//   'P' predict: id(int) rows(int) d(int) X -> classes(int) distributions(rows*classes
//                doubles) predicted class(rows ints; J48.classifyInstance)
//   'L' load:    model bytes -> id(int)
//   'T' tree:    id(int) -> J48.toString() as int length + UTF-8 bytes
//   'H' order:   m(int) then m label sets (int length + ints) -> the iteration order of
//                a java.util.HashMap keyed by the sets (first index of each distinct set)
//   'R' random:  seed(long) n(int) n bounds(int) -> java.util.Random(seed).nextInt(bound)
//                for each bound in turn (n ints)
//   'Q' quit.
// header = d(int), d ints (0 numeric, v > 0 nominal with values "0".."v-1"), classes(int).
import java.io.*;
import java.util.*;
import weka.classifiers.trees.J48;
import weka.core.Attribute;
import weka.core.FastVector;
import weka.core.Instance;
import weka.core.Instances;
import weka.core.Utils;

public class J48Server {
  static final int MAX_MODELS = 256;
  static final Map<Integer, Object[]> MODELS =
      new LinkedHashMap<Integer, Object[]>(16, 0.75f, true) {
        protected boolean removeEldestEntry(Map.Entry<Integer, Object[]> e) {
          return size() > MAX_MODELS;
        }
      };
  static int nextId = 1;

  static FastVector values(int v) {
    FastVector fv = new FastVector(v);
    for (int i = 0; i < v; i++) fv.addElement(Integer.toString(i));
    return fv;
  }

  static Instances header(DataInputStream in) throws IOException {
    int d = in.readInt();
    FastVector atts = new FastVector(d + 1);
    for (int i = 0; i < d; i++) {
      int v = in.readInt();
      atts.addElement(v == 0 ? new Attribute("x" + i) : new Attribute("x" + i, values(v)));
    }
    atts.addElement(new Attribute("class", values(in.readInt())));
    Instances h = new Instances("data", atts, 0);
    h.setClassIndex(d);
    return h;
  }

  static double[][] rows(DataInputStream in, int n, int d) throws IOException {
    double[][] x = new double[n][d + 1];
    for (int r = 0; r < n; r++) {
      for (int c = 0; c < d; c++) x[r][c] = in.readDouble();
      x[r][d] = Instance.missingValue();
    }
    return x;
  }

  static byte[] serialise(Object[] model) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    ObjectOutputStream o = new ObjectOutputStream(b);
    o.writeObject(model);
    o.close();
    return b.toByteArray();
  }

  static int store(Object[] model) {
    int id = nextId++;
    MODELS.put(id, model);
    return id;
  }

  static void fail(DataOutputStream out, Throwable e) throws IOException {
    out.writeInt(1);
    String m = e.toString();
    out.writeUTF(m.length() > 2000 ? m.substring(0, 2000) : m);
  }

  public static void main(String[] args) throws Exception {
    DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out, 1 << 16));
    System.setOut(System.err); // nothing Weka prints may corrupt the protocol
    while (true) {
      int cmd;
      try {
        cmd = in.readByte();
      } catch (EOFException e) {
        return;
      }
      if (cmd == 'Q') return;
      if (cmd == 'F') {
        String options = in.readUTF();
        Instances data = header(in);
        int n = in.readInt(), d = data.numAttributes() - 1;
        double[][] x = rows(in, n, d);
        for (int r = 0; r < n; r++) x[r][d] = in.readInt();
        try {
          for (int r = 0; r < n; r++) data.add(new Instance(1.0, x[r]));
          J48 tree = new J48();
          tree.setOptions(Utils.splitOptions(options));
          tree.buildClassifier(data);
          Object[] model = {tree, new Instances(data, 0)};
          byte[] bytes = serialise(model);
          out.writeInt(0);
          out.writeInt(store(model));
          out.writeInt(bytes.length);
          out.write(bytes);
        } catch (Exception e) {
          fail(out, e);
        }
      } else if (cmd == 'P') {
        int id = in.readInt(), n = in.readInt(), d = in.readInt();
        double[][] x = rows(in, n, d);
        Object[] model = MODELS.get(id);
        if (model == null) {
          out.writeInt(2);
        } else {
          try {
            J48 tree = (J48) model[0];
            Instances h = (Instances) model[1];
            if (h.numAttributes() - 1 != d) throw new IllegalArgumentException(
                "model has " + (h.numAttributes() - 1) + " features, X has " + d);
            int k = h.numClasses();
            double[][] dist = new double[n][];
            int[] cls = new int[n];
            for (int r = 0; r < n; r++) {
              Instance inst = new Instance(1.0, x[r]);
              inst.setDataset(h);
              dist[r] = tree.distributionForInstance(inst);
              cls[r] = (int) tree.classifyInstance(inst);
            }
            out.writeInt(0);
            out.writeInt(k);
            for (int r = 0; r < n; r++) for (int c = 0; c < k; c++) out.writeDouble(dist[r][c]);
            for (int r = 0; r < n; r++) out.writeInt(cls[r]);
          } catch (Exception e) {
            fail(out, e);
          }
        }
      } else if (cmd == 'L') {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        try {
          ObjectInputStream o = new ObjectInputStream(new ByteArrayInputStream(bytes));
          Object[] model = (Object[]) o.readObject();
          out.writeInt(0);
          out.writeInt(store(model));
        } catch (Exception e) {
          fail(out, e);
        }
      } else if (cmd == 'T') {
        Object[] model = MODELS.get(in.readInt());
        if (model == null) {
          out.writeInt(2);
        } else {
          byte[] text = model[0].toString().getBytes("UTF-8");
          out.writeInt(0);
          out.writeInt(text.length);
          out.write(text);
        }
      } else if (cmd == 'H') {
        int m = in.readInt();
        HashMap<List<Integer>, Integer> map = new HashMap<List<Integer>, Integer>();
        for (int i = 0; i < m; i++) {
          int len = in.readInt();
          List<Integer> key = new ArrayList<Integer>(len);
          for (int j = 0; j < len; j++) key.add(in.readInt());
          if (!map.containsKey(key)) map.put(key, i);
        }
        out.writeInt(0);
        out.writeInt(map.size());
        for (Integer first : map.values()) out.writeInt(first);
      } else if (cmd == 'R') {
        Random random = new Random(in.readLong());
        int n = in.readInt();
        int[] bounds = new int[n];
        for (int i = 0; i < n; i++) bounds[i] = in.readInt();
        out.writeInt(0);
        for (int i = 0; i < n; i++) out.writeInt(random.nextInt(bounds[i]));
      } else {
        System.err.println("J48Server: unknown command " + cmd);
        System.exit(3);
      }
      out.flush();
    }
  }
}
