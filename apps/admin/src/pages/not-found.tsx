import { Button, Result } from 'antd';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Result
      status="404"
      title="页面不存在"
      extra={
        <Link to="/books">
          <Button type="primary">返回书籍列表</Button>
        </Link>
      }
    />
  );
}
